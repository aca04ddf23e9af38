import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Statements of the hot paths (a widget message: docs/performance.md "Ingest") compiled once and run as
 * PostgreSQL prepared statements. knex builds every query anew (builder, compiler, identifier mapping,
 * binding positions): for a statement the size of the inbound one that is a large share of the api's CPU
 * per message. Here the query is built once with knex from the same builders the rest of the code uses,
 * its text kept, and each run only fills the values in; pg parses a named statement once per connection
 * and the server plans it from then on without parsing. Runs take a connection from knex's pool (its
 * limits, timeouts and waiters, api/db/poolState.ts) and emit knex's `query` event like any query
 * (test/perf/roundTrips.test.ts, bench/lib/captureSql.ts count them).
 */

/** Builds the query from named parameters: each parameter is a marker value to bind where the value goes. */
export type StatementBuilder<K extends string> = (knex: Knex, param: Record<K, string>) => Knex.QueryBuilder | Knex.Raw;

interface Compiled<K extends string> {
  name: string;
  text: string;
  /** What each $n takes: a parameter's name, or a constant the builder bound itself. */
  slots: ({ key: K } | { value: unknown })[];
}

export interface PreparedStatement<K extends string> {
  /** Runs the statement on a pool connection; resolves to its rows, keys mapped like any knex result. */
  rows<R>(knex: Knex, values: Record<K, unknown>): Promise<R[]>;
  /** The SQL and its $n slots as compiled for this knex instance (tests, EXPLAIN). */
  compile(knex: Knex): { text: string; bindings: (K | unknown)[] };
}

const MARK = '\u0001param:';

interface PgResult {
  rows: Record<string, unknown>[];
}

/** A pg client as knex's pool hands it out. */
interface PooledConnection {
  __knexUid?: string;
  query(config: { name: string; text: string; values: unknown[] }): Promise<PgResult>;
}

interface ClientInternals {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
  emit(event: 'query', query: Record<string, unknown>): boolean;
  postProcessResponse(rows: unknown, context: unknown): unknown;
}

/**
 * One statement of the hot paths, run on its own (autocommitted, never inside a transaction): `name` names
 * it on every connection (with a hash of its text, so a changed statement is never run under an old name),
 * `keys` lists its parameters, `build` writes it with the markers it is given where the values go.
 */
export function preparedStatement<K extends string>(name: string, keys: readonly K[], build: StatementBuilder<K>): PreparedStatement<K> {
  // One compilation per knex instance (its dialect and identifier mapping shape the text).
  const compiled = new WeakMap<Knex, Compiled<K>>();
  function compile(knex: Knex): Compiled<K> {
    const known = compiled.get(knex);
    if (known) return known;
    const markers = Object.fromEntries(keys.map((k) => [k, `${MARK}${k}`])) as Record<K, string>;
    const byMarker = new Map<unknown, K>(keys.map((k) => [markers[k], k]));
    const native = build(knex, markers).toSQL().toNative();
    const slots = native.bindings.map((b) => (byMarker.has(b) ? { key: byMarker.get(b)! } : { value: b }));
    const unused = keys.filter((k) => !slots.some((s) => 'key' in s && s.key === k));
    if (unused.length) throw new Error(`prepared statement ${name}: parameters never bound: ${unused.join(', ')}`);
    if (native.sql.includes(MARK)) throw new Error(`prepared statement ${name}: a parameter was written into the SQL instead of bound`);
    // knex's client turns every ? of a query's text into a $n before it runs it.
    if (native.sql.includes('?')) throw new Error(`prepared statement ${name}: no ? operator in a prepared statement (write jsonb_exists or @>)`);
    const hash = createHash('sha1').update(native.sql).digest('hex').slice(0, 10);
    const result = { name: `${name}_${hash}`, text: native.sql, slots };
    compiled.set(knex, result);
    return result;
  }
  return {
    async rows<R>(knex: Knex, values: Record<K, unknown>): Promise<R[]> {
      // It takes its own pool connection: inside a transaction it would run outside it.
      if ((knex as { isTransaction?: boolean }).isTransaction) throw new Error(`prepared statement ${name} run on a transaction`);
      const { name: statementName, text, slots } = compile(knex);
      const bindings = slots.map((s) => ('key' in s ? values[s.key] : s.value));
      const client = knex.client as unknown as ClientInternals;
      const connection = await client.acquireConnection();
      try {
        // knex's own run would rescan the text for ? and copy it for its debug log on every call: what a
        // listener of knex's `query` event gets is the same object, emitted here.
        client.emit('query', { __knexUid: connection.__knexUid, method: 'raw', sql: text, bindings, options: { name: statementName } });
        const response = await connection.query({ name: statementName, text, values: bindings });
        return client.postProcessResponse(response.rows, undefined) as R[];
      } finally {
        await client.releaseConnection(connection);
      }
    },
    compile(knex: Knex) {
      const { text, slots } = compile(knex);
      return { text, bindings: slots.map((s) => ('key' in s ? s.key : s.value)) };
    },
  };
}
