/** Knex CLI configuration (`npx knex --knexfile knexfile.ts migrate:status`); the app itself uses api/db. */
import { loadConfig } from './api/config';
import { migrationConfig } from './api/db/migrate';
import { knexSnakeCaseMappers } from 'objection';

const config = loadConfig();

export default {
  client: 'pg',
  connection: config.databaseUrl,
  migrations: migrationConfig,
  ...knexSnakeCaseMappers(),
};
