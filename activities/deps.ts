import type { Knex } from 'knex';
import type { Logger } from '../api/logger';
import type { Publisher } from '../api/realtime/publisher';

/** What activities may touch; the worker passes the real ones, tests may pass their own. */
export interface ActivityDeps {
  knex: Knex;
  publisher: Publisher;
  logger: Logger;
}
