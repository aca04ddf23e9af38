import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex';

export interface Statement {
  sql: string;
  bindings: unknown[];
}

/**
 * The statements `body` runs through a knex of its own, in pg's $n form, for the bare baseline server to
 * replay. The caller's code runs for real once, so what is replayed is exactly what the api sends.
 */
export async function captureSql(databaseUrl: string, body: (knex: Knex) => Promise<unknown>): Promise<Statement[]> {
  const knex = createKnex(databaseUrl, { pool: { max: 1 } });
  const statements: Statement[] = [];
  const client = knex.client as unknown as { positionBindings(sql: string): string };
  knex.on('query', (q: { sql: string; bindings?: unknown[] }) => statements.push({ sql: client.positionBindings(q.sql), bindings: q.bindings ?? [] }));
  try {
    await body(knex);
  } finally {
    await knex.destroy();
  }
  return statements;
}
