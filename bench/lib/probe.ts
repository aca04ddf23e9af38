import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { coreTimes } from './runs';

/**
 * What the machine, the api child, PostgreSQL and the load generator were doing during a measured
 * phase, sampled every `everyMs`: it tells a slow phase caused by us (api CPU at 100% of its core, pool
 * waits, lock waits) from one caused by the machine (cores busy with other processes, the generator's
 * own event loop late) or by PostgreSQL housekeeping (autovacuum).
 */
export interface Sample {
  /** Seconds since the probe started. */
  at: number;
  /** Busy share of each core over the last interval (/proc/stat; all processes, not only ours). */
  cores: number[];
  /** The api child (bench/servers/appServer.ts /__bench/stats), when a port was given. */
  api?: {
    cpuShare: number;
    loopDelayP99Ms: number;
    loopDelayMaxMs: number;
    poolUsed: number;
    poolFree: number;
    poolPendingAcquires: number;
    poolPendingCreates: number;
    /** Statements the api sent while serving requests during the interval. */
    requestQueries?: number;
  };
  /** This process (the load generator): CPU share of one core and its event-loop delay. */
  generator: { cpuShare: number; loopDelayP99Ms: number; loopDelayMaxMs: number };
  /** Backends of the bench database by state and wait (e.g. "active", "active Lock:transactionid"). */
  pg: Record<string, number>;
  /** Autovacuum/autoanalyze workers running anywhere, with what they work on. */
  autovacuum: string[];
}

export function getJson<T>(port: number, path: string): Promise<T | undefined> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as T);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
  });
}

export interface Probe {
  stop(): Promise<Sample[]>;
  /** Checkpoints PostgreSQL started while the probe ran (timed and requested), when it tells. */
  checkpoints(): number | undefined;
}

async function checkpointCount(client: pg.Client): Promise<number | undefined> {
  // PostgreSQL 17 moved the counters to pg_stat_checkpointer.
  for (const sql of ['SELECT (num_timed + num_requested)::int AS n FROM pg_stat_checkpointer', 'SELECT (checkpoints_timed + checkpoints_req)::int AS n FROM pg_stat_bgwriter']) {
    try {
      return (await client.query<{ n: number }>(sql)).rows[0]?.n;
    } catch {
      // the other view
    }
  }
  return undefined;
}

export async function startProbe(options: { databaseUrl: string; apiPort?: number; everyMs?: number }): Promise<Probe> {
  const everyMs = options.everyMs ?? 250;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  if (options.apiPort) await getJson(options.apiPort, '/__bench/stats'); // resets its counters
  const checkpointsBefore = await checkpointCount(client);
  let checkpointsDuring: number | undefined;
  const samples: Sample[] = [];
  const started = Date.now();
  let lastCores = coreTimes();
  let lastCpu = process.cpuUsage();
  let lastAt = Date.now();
  let stopped = false;
  const take = async () => {
    const [api, activity, vacuum] = await Promise.all([
      options.apiPort ? getJson<Sample['api']>(options.apiPort, '/__bench/stats') : undefined,
      client
        .query<{ k: string; n: number }>(
          `SELECT state || coalesce(' ' || wait_event_type || ':' || wait_event, '') AS k, count(*)::int AS n
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' GROUP BY 1`,
        )
        .then((r) => r.rows)
        .catch(() => []),
      client
        .query<{ q: string }>(`SELECT datname || ': ' || query AS q FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND query <> ''`)
        .then((r) => r.rows.map((row) => row.q))
        .catch(() => []),
    ]);
    const cores = coreTimes();
    const cpu = process.cpuUsage(lastCpu);
    const now = Date.now();
    samples.push({
      at: (now - started) / 1000,
      cores: cores.map((c, i) => {
        const before = lastCores[i];
        return before && c.total > before.total ? (c.busy - before.busy) / (c.total - before.total) : 0;
      }),
      api,
      generator: { cpuShare: (cpu.user + cpu.system) / 1000 / Math.max(1, now - lastAt), loopDelayP99Ms: loop.percentile(99) / 1e6, loopDelayMaxMs: loop.max / 1e6 },
      pg: Object.fromEntries(activity.map((r) => [r.k, r.n])),
      autovacuum: vacuum,
    });
    lastCores = cores;
    lastCpu = process.cpuUsage();
    lastAt = now;
    loop.reset();
  };
  const running = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (!stopped) await take();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      const after = await checkpointCount(client);
      checkpointsDuring = after !== undefined && checkpointsBefore !== undefined ? after - checkpointsBefore : undefined;
      loop.disable();
      await client.end();
      return samples;
    },
    checkpoints: () => checkpointsDuring,
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** One line on what a phase's samples say (averages and worst values). */
export function digest(samples: Sample[]): string {
  if (!samples.length) return 'no samples';
  const parts: string[] = [];
  const cores = samples[0].cores.map((_, i) => `${(mean(samples.map((s) => s.cores[i] ?? 0)) * 100).toFixed(0)}%`);
  if (cores.length) parts.push(`cores busy ${cores.join('/')}`);
  const api = samples.map((s) => s.api).filter((a): a is NonNullable<Sample['api']> => !!a);
  if (api.length) {
    parts.push(`api CPU ${(mean(api.map((a) => a.cpuShare)) * 100).toFixed(0)}% of a core (max ${(Math.max(...api.map((a) => a.cpuShare)) * 100).toFixed(0)}%)`);
    parts.push(`api loop delay max ${Math.max(...api.map((a) => a.loopDelayMaxMs)).toFixed(0)} ms`);
    parts.push(`pool used max ${Math.max(...api.map((a) => a.poolUsed))}, waiting max ${Math.max(...api.map((a) => a.poolPendingAcquires))}`);
  }
  parts.push(`generator CPU ${(mean(samples.map((s) => s.generator.cpuShare)) * 100).toFixed(0)}%, loop delay max ${Math.max(...samples.map((s) => s.generator.loopDelayMaxMs)).toFixed(0)} ms`);
  const waits = new Map<string, number>();
  for (const s of samples) for (const [k, n] of Object.entries(s.pg)) if (k.includes(':') && !k.startsWith('idle')) waits.set(k, (waits.get(k) ?? 0) + n);
  const active = mean(samples.map((s) => Object.entries(s.pg).filter(([k]) => k.startsWith('active')).reduce((a, [, n]) => a + n, 0)));
  const inTransaction = mean(samples.map((s) => Object.entries(s.pg).filter(([k]) => k.startsWith('idle in transaction')).reduce((a, [, n]) => a + n, 0)));
  parts.push(`pg backends active ${active.toFixed(1)}, idle in transaction ${inTransaction.toFixed(1)} (avg)`);
  if (waits.size) parts.push(`pg waits ${[...waits].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, n]) => `${k.replace(/^active /, '')}×${n}`).join(', ')}`);
  const vacuums = new Set(samples.flatMap((s) => s.autovacuum));
  parts.push(vacuums.size ? `autovacuum: ${[...vacuums].slice(0, 3).join('; ')}` : 'no autovacuum');
  return parts.join('; ');
}

/** Per-second lines of the samples (BENCH_TIMELINE=1). */
export function timeline(samples: Sample[], extra: (from: number, to: number) => string = () => ''): string[] {
  const lines: string[] = [];
  const last = samples.length ? Math.ceil(samples[samples.length - 1].at) : 0;
  for (let sec = 0; sec < last; sec++) {
    const in1 = samples.filter((s) => s.at > sec && s.at <= sec + 1);
    if (!in1.length) continue;
    const api = in1.map((s) => s.api).filter((a): a is NonNullable<Sample['api']> => !!a);
    const pgActive = Math.max(...in1.map((s) => Object.entries(s.pg).filter(([k]) => k.startsWith('active')).reduce((a, [, n]) => a + n, 0)));
    lines.push(
      `  t=${String(sec).padStart(3)}s cores ${in1[0].cores.map((_, i) => `${(mean(in1.map((s) => s.cores[i] ?? 0)) * 100).toFixed(0)}%`).join('/')}` +
        (api.length ? ` api ${(mean(api.map((a) => a.cpuShare)) * 100).toFixed(0)}% loop≤${Math.max(...api.map((a) => a.loopDelayMaxMs)).toFixed(0)}ms pool ${Math.max(...api.map((a) => a.poolUsed))}+${Math.max(...api.map((a) => a.poolPendingAcquires))}w` : '') +
        ` gen ${(mean(in1.map((s) => s.generator.cpuShare)) * 100).toFixed(0)}% loop≤${Math.max(...in1.map((s) => s.generator.loopDelayMaxMs)).toFixed(0)}ms pg active≤${pgActive}` +
        (in1.some((s) => s.autovacuum.length) ? ' autovacuum' : '') +
        extra(sec, sec + 1),
    );
  }
  return lines;
}
