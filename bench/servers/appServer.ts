/**
 * The real api (createApp with every middleware) on a loopback port, over DATABASE_URL. Bench-only:
 * `GET /__bench/stats` (answered before the app, never part of it) tells what this process did since the
 * last call: CPU time used (share of one core), event-loop delay, statements sent while serving requests,
 * and the knex pool's state, so a slow
 * phase shows whether the api was busy, blocked or waiting for connections (bench/lib/probe.ts).
 */
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector';
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
// request costs 5–15% on the http-floor scenario, which measures the stack itself. It can be switched off
// and on while the server runs (`POST /__bench/count-statements?on=0|1`): the async context's promise hooks
// are not part of the product, so a CPU-per-message figure is taken with it off (ingest's costPerMessage).
let countStatements = process.env.BENCH_COUNT_STATEMENTS === '1';
const inRequest = new AsyncLocalStorage<true>();
let requestQueries = 0;
let requestQueriesTotal = 0;
knex.on('query', () => {
  if (countStatements && inRequest.getStore()) {
    requestQueries++;
    requestQueriesTotal++;
  }
});
function setCounting(req: http.IncomingMessage, res: http.ServerResponse) {
  countStatements = new URL(req.url ?? '', 'http://bench').searchParams.get('on') === '1';
  // disable() also removes the promise hooks the store installed (no other store exists in this process).
  if (!countStatements) inRequest.disable();
  res.writeHead(204).end();
}
const pool = (knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; numPendingCreates(): number } }).pool;
/** CPU (user + system, ms) of this process's main thread alone, from /proc (NaN elsewhere): the rest is V8's and libuv's threads. */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
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
    cpuSystemMsTotal: lastCpu.system / 1000,
    mainThreadCpuMsTotal: mainThreadCpuMs(),
  });
  loopDelay.reset();
  requestQueries = 0;
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
}
// BENCH_WINDOW_PROF=DIR: `GET /__bench/profile?on=1` starts V8's CPU profiler in this process, `?on=0` stops
// it and writes the profile there (a window of the run, where --cpu-prof covers the whole life).
let profiler: Session | undefined;
function setProfiling(req: http.IncomingMessage, res: http.ServerResponse) {
  const dir = process.env.BENCH_WINDOW_PROF;
  const on = new URL(req.url ?? '', 'http://bench').searchParams.get('on') === '1';
  if (!dir) return void res.writeHead(204).end();
  if (on && !profiler) {
    profiler = new Session();
    profiler.connect();
    profiler.post('Profiler.enable', () => profiler!.post('Profiler.setSamplingInterval', { interval: 250 }, () => profiler!.post('Profiler.start', () => res.writeHead(204).end())));
  } else if (!on && profiler) {
    const session = profiler;
    profiler = undefined;
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(path.join(dir, `window-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
      session.disconnect();
      res.writeHead(204).end();
    });
  } else res.writeHead(204).end();
}
server.on('request', (req, res) => {
  if (req.url?.startsWith('/__bench/profile')) return setProfiling(req, res);
  if (req.url === '/__bench/stats') stats(res);
  else if (req.url?.startsWith('/__bench/count-statements')) setCounting(req, res);
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
