import type { Knex } from 'knex';
import type { Logger } from '../api/logger';
import type { Publisher } from '../api/realtime/publisher';
import type { Config } from '../api/config';
import type { TemporalGateway } from '../api/temporal/client';

/** What activities may touch; the worker passes the real ones, tests may pass their own. */
export interface ActivityDeps {
  knex: Knex;
  publisher: Publisher;
  logger: Logger;
  /** The process config; the bot activities need it (signed file links in realtime events). */
  config?: Config;
  /** Starts workflows from an activity (a bot reply's channel-send delivery); absent: the worker's sweep starts them. */
  temporal?: TemporalGateway;
}
