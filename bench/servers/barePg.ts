/**
 * Baseline for the inbox scenarios: node:http + pg running, per request, the statements the api ran for
 * the same call (captured from knex by bench/lib/captureSql.ts), and answering their rows as JSON.
 * No routing, validation, auth or presenters: what the database and the driver cost alone.
 * BENCH_SQL is a JSON file {"/path": [{"sql", "bindings"}]}.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const routes = JSON.parse(readFileSync(process.env.BENCH_SQL as string, 'utf8')) as Record<string, { sql: string; bindings: unknown[] }[]>;
// As many connections as the api's pool (createKnex's default in api/db/knex.ts, or BENCH_POOL_MAX).
// The same session settings as the api's pool (api/db/knex.ts: jit=off), so the baseline runs the same plans.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BENCH_POOL_MAX ?? 10), options: '-c jit=off' });

const server = http.createServer((req, res) => {
  const statements = routes[req.url ?? ''];
  if (!statements) {
    res.writeHead(404).end();
    return;
  }
  void (async () => {
    try {
      const results: unknown[] = [];
      for (const s of statements) results.push((await pool.query(s.sql, s.bindings)).rows);
      const body = JSON.stringify({ data: results });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  })();
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
