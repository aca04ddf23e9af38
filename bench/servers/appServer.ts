/**
 * The real api (createApp with every middleware) on a loopback port, over DATABASE_URL. Bench-only:
 * `GET /__bench/stats` (answered before the app, never part of it) tells what this process did since the
 * last call: CPU time used (share of one core), event-loop delay, statements sent while serving requests,
 * and the knex pool's state, so a slow
 * phase shows whether the api was busy, blocked or waiting for connections (bench/lib/probe.ts).
 */
import http from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { createKnex, bindModels } from '../../api/db/knex';
import { createMailer } from '../../api/mail/mailer';
import { createTemporalGateway } from '../../api/temporal/client';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';
import { createApp } from '../../api/app';
import { attachBroker } from '../../api/realtime/broker';
import { setOperatorOnline } from '../../api/assignment/setOperatorOnline';
import { startInboundRepublisher } from '../../api/conversations/republishInbound';
import { startInboxCountCompactor } from '../../api/inbox/compactInboxCounts';

const config = loadConfig();
const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent');
// The pool as the api process has it (api/main.ts: createKnex's default) unless BENCH_POOL_MAX says otherwise.
const knex = createKnex(config.databaseUrl, process.env.BENCH_POOL_MAX ? { pool: { max: Number(process.env.BENCH_POOL_MAX) } } : {});
bindModels(knex);
const server = http.createServer();
server.keepAliveTimeout = 65_000;
const broker = attachBroker(server, { config, knex, logger, onPresence: setOperatorOnline });
const app = createApp({
  config,
  knex,
  logger,
  mailer: createMailer(config, logger),
  publisher: broker.publisher,
  temporal: createTemporalGateway(config),
  rateLimiter: createMemoryRateLimiter(),
});
const handle = app.callback();
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let lastCpu = process.cpuUsage();
let lastAt = process.hrtime.bigint();
// Statements sent while serving a request (the background jobs' are not counted): the ingest scenario's
// statements per widget message. Only that scenario asks (BENCH_COUNT_STATEMENTS=1): the async context per
// request costs 5–15% on the http-floor scenario, which measures the stack itself.
const countStatements = process.env.BENCH_COUNT_STATEMENTS === '1';
const inRequest = new AsyncLocalStorage<true>();
let requestQueries = 0;
let requestQueriesTotal = 0;
if (countStatements) {
  knex.on('query', () => {
    if (inRequest.getStore()) {
      requestQueries++;
      requestQueriesTotal++;
    }
  });
}
const pool = (knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; numPendingCreates(): number } }).pool;
function stats(res: http.ServerResponse) {
  const cpu = process.cpuUsage(lastCpu);
  const now = process.hrtime.bigint();
  const wallMs = Number(now - lastAt) / 1e6;
  lastCpu = process.cpuUsage();
  lastAt = now;
  const body = JSON.stringify({
    cpuShare: wallMs > 0 ? (cpu.user + cpu.system) / 1000 / wallMs : 0,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    poolUsed: pool?.numUsed() ?? -1,
    poolFree: pool?.numFree() ?? -1,
    poolPendingAcquires: pool?.numPendingAcquires() ?? -1,
    poolPendingCreates: pool?.numPendingCreates() ?? -1,
    requestQueries,
    // Since the process started, for totals over a span that do not depend on every sample arriving.
    requestQueriesTotal,
    cpuMsTotal: (lastCpu.user + lastCpu.system) / 1000,
  });
  loopDelay.reset();
  requestQueries = 0;
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
}
server.on('request', (req, res) => {
  if (req.url === '/__bench/stats') stats(res);
  else if (countStatements) inRequest.run(true, () => void handle(req, res));
  else void handle(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
// What api/main.ts runs next to the server: the sweep that republishes committed but unpublished inbound events.
const republisher = startInboundRepublisher({ config, knex, logger, publisher: broker.publisher });
// And the compactor of the inbox count deltas (the counter call and the list's matchCount read them).
const countCompactor = startInboxCountCompactor({ knex, logger });
process.on('SIGTERM', () => {
  server.close();
  void republisher
    .stop()
    .then(() => countCompactor.stop())
    .then(() => broker.close())
    .then(() => knex.destroy())
    .then(() => process.exit(0));
});
