import type { Knex } from 'knex';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Mailer } from './mail/mailer';
import type { Publisher } from './realtime/publisher';
import type { TemporalGateway } from './temporal/client';
import type { RateLimiter } from './http/rateLimit';

/** Everything the api needs from the outside world, built once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  knex: Knex;
  logger: Logger;
  mailer: Mailer;
  publisher: Publisher;
  temporal: TemporalGateway;
  rateLimiter: RateLimiter;
  /** Ends an operator's live realtime sessions in a workspace (deactivation, level or password change). */
  realtimeSessions?: {
    disconnectOperator(workspaceId: number, operatorId: number): Promise<number>;
    /** Stops delivering these topics (team rooms left) to the operator's sessions without ending them (docs/team-chat.md). */
    revokeTopics?(workspaceId: number, operatorId: number, topics: string[]): Promise<number>;
  };
  /** The current time where a rule depends on it and tests must move it (the team chat's edit window); Date.now when unset. */
  clock?: () => number;
  /** Health probes of dependencies that are not the database. */
  health?: { mqtt?: () => Promise<boolean> };
}
