import type { Config } from '../../api/config';
import type { ActivityDeps } from '../deps';

/** What the bot activities need: the activity deps plus the config (signed file links in realtime events). */
export type BotActivityDeps = ActivityDeps & { config: Config };

/** The worker passes its config; a caller that did not gets a clear failure on the first bot step. */
export function withConfig(deps: ActivityDeps): BotActivityDeps {
  if (!deps.config) throw new Error('bot activities need deps.config (createActivities({ ..., config }))');
  return deps as BotActivityDeps;
}

export interface BotActivityOptions {
  /** The integration action's HTTP timeout and response cap. */
  integrationTimeoutMs: number;
  integrationMaxBytes: number;
  /** Tests only: lets integrations reach an http fake on loopback. */
  allowLoopbackForTests?: boolean;
}

export const DEFAULT_BOT_ACTIVITY_OPTIONS: BotActivityOptions = { integrationTimeoutMs: 10_000, integrationMaxBytes: 256 * 1024 };
