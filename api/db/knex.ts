import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { knexSnakeCaseMappers, Model } from 'objection';

// int8 (counts, bigint ids) and numeric as JS numbers: ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export interface DbOptions {
  pool?: { min?: number; max?: number };
}

export function createKnex(connectionString: string, options: DbOptions = {}): Knex {
  return knexFactory({
    client: 'pg',
    // A database that does not answer fails the request within seconds (503) instead of holding it.
    // jit=off: the api's statements are short, and PostgreSQL's JIT, which starts on a plan's estimated cost,
    // added 40–140 ms of compilation to single search and report statements at 10M messages (bench/README.md).
    connection: { connectionString, application_name: 'balcao', connectionTimeoutMillis: 4000, keepAlive: true, options: '-c jit=off' },
    pool: { min: 0, max: options.pool?.max ?? 10, ...(options.pool ?? {}) },
    acquireConnectionTimeout: 10_000,
    ...knexSnakeCaseMappers(),
  });
}

/** Binds every Objection model to this knex instance (one database per process). */
export function bindModels(knex: Knex): void {
  Model.knex(knex);
}
