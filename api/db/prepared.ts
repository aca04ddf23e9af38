import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';

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
  /** Its rows' shape, from the first execution's row description (RowShape). */
  shape: { current?: RowShape };
}

/**
 * What pg works out from every execution's row description and a prepared statement's results never change
 * (its text is fixed under its name; a column type changed under it makes PostgreSQL refuse the cached plan):
 * each column's type parser and the key knex's identifier mapping gives its name. pg rebuilds the parsers
 * and an empty row object per execution, and objection renames every key of every row after it; kept here
 * they cost nothing after the first execution (docs/performance.md "Ingest", `_handleRowDescription`).
 */
interface RowShape {
  typeIds: number[];
  parsers: ((raw: string) => unknown)[];
  keys: string[];
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** pg's Query internals a ShapedQuery reads (not in pg's typings). */
interface QueryInternals {
  _result: { _parsers: ((raw: string) => unknown)[]; rows: Record<string, unknown>[]; fields: unknown[] };
  _canceledDueToError: unknown;
  handleRowDescription(msg: { fields: FieldDescription[] }): void;
  handleDataRow(msg: { fields: (string | null)[] }): void;
}

function sameShape(shape: RowShape, fields: FieldDescription[]): boolean {
  if (shape.typeIds.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i++) if (shape.typeIds[i] !== fields[i].dataTypeID) return false;
  return true;
}

/**
 * pg's Query with the statement's RowShape: from its second execution on, rows are built from the kept
 * parsers under their mapped keys, and pg's per-execution row setup is skipped. A column in binary format
 * (never asked for here) leaves the query to pg's own path; `mapped` tells the caller which it took.
 */
class ShapedQuery extends (pg.Query as unknown as new (config: { name: string; text: string; values: unknown[] }, values: undefined, callback: (err: Error | undefined, result: { rows: Record<string, unknown>[] }) => void) => QueryInternals) {
  mapped = false;
  private rowShape: RowShape | undefined;

  constructor(
    config: { name: string; text: string; values: unknown[] },
    private readonly shapeRef: { current?: RowShape },
    private readonly mapKey: (name: string) => string,
    callback: (err: Error | undefined, result: { rows: Record<string, unknown>[] }) => void,
  ) {
    super(config, undefined, callback);
  }

  override handleRowDescription(msg: { fields: FieldDescription[] }): void {
    let shape = this.shapeRef.current;
    if (!shape || !sameShape(shape, msg.fields)) {
      super.handleRowDescription(msg);
      if (msg.fields.some((f) => f.format === 'binary')) return;
      shape = { typeIds: msg.fields.map((f) => f.dataTypeID), parsers: this._result._parsers.slice(), keys: msg.fields.map((f) => this.mapKey(f.name)) };
      this.shapeRef.current = shape;
    } else this._result.fields = msg.fields;
    this.rowShape = shape;
    this.mapped = true;
  }

  override handleDataRow(msg: { fields: (string | null)[] }): void {
    const shape = this.rowShape;
    if (!shape) return super.handleDataRow(msg);
    if (this._canceledDueToError) return;
    const { parsers, keys } = shape;
    const raw = msg.fields;
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < raw.length; i++) {
        const value = raw[i];
        row[keys[i]] = value === null ? null : parsers[i](value);
      }
    } catch (err) {
      this._canceledDueToError = err;
      return;
    }
    this._result.rows.push(row);
  }
}

export interface PreparedStatement<K extends string> {
  /** Runs the statement on a pool connection; resolves to its rows, keys mapped like any knex result. */
  rows<R>(knex: Knex, values: Record<K, unknown>): Promise<R[]>;
  /** The SQL and its $n slots as compiled for this knex instance (tests, EXPLAIN). */
  compile(knex: Knex): { text: string; bindings: (K | unknown)[] };
}

const MARK = '\u0001param:';

/** A pg client as knex's pool hands it out. */
interface PooledConnection {
  __knexUid?: string;
  query(query: ShapedQuery): unknown;
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
    const result = { name: `${name}_${hash}`, text: native.sql, slots, shape: {} };
    compiled.set(knex, result);
    return result;
  }
  return {
    async rows<R>(knex: Knex, values: Record<K, unknown>): Promise<R[]> {
      // It takes its own pool connection: inside a transaction it would run outside it.
      if ((knex as { isTransaction?: boolean }).isTransaction) throw new Error(`prepared statement ${name} run on a transaction`);
      const { name: statementName, text, slots, shape } = compile(knex);
      const bindings = slots.map((s) => ('key' in s ? values[s.key] : s.value));
      const client = knex.client as unknown as ClientInternals;
      const connection = await client.acquireConnection();
      try {
        // knex's own run would rescan the text for ? and copy it for its debug log on every call: what a
        // listener of knex's `query` event gets is the same object, emitted here.
        client.emit('query', { __knexUid: connection.__knexUid, method: 'raw', sql: text, bindings, options: { name: statementName } });
        let query: ShapedQuery | undefined;
        const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
          query = new ShapedQuery({ name: statementName, text, values: bindings }, shape, (column) => mapColumn(client, column), (err, result) => (err ? reject(err) : resolve(result.rows)));
          connection.query(query);
        });
        return (query!.mapped ? rows : client.postProcessResponse(rows, undefined)) as R[];
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

/** The key knex's identifier mapping (knexfile: objection's snake-case mappers) gives a column named `column`. */
function mapColumn(client: ClientInternals, column: string): string {
  const mapped = client.postProcessResponse({ [column]: null }, undefined) as Record<string, unknown>;
  return Object.keys(mapped)[0] ?? column;
}
