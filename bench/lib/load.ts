import http from 'node:http';
import { summarize } from './scenario';

/** Connections of the saturated (throughput) cases (BENCH_CONNECTIONS, default 32). */
export const SATURATING_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * Closed-loop load: `concurrency` keep-alive connections each sending the next request when the last
 * answered, for `seconds` (bounded), against loopback only.
 */
export async function runLoad(options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
}): Promise<LoadResult> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('bench targets loopback only');
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const once = () =>
    new Promise<number>((resolve) => {
      const started = process.hrtime.bigint();
      const req = http.request(target, { agent, method: options.method ?? 'GET', headers: options.headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - started) / 1e6 : -1));
      });
      req.on('error', () => resolve(-1));
      req.end();
    });
  const phase = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (Date.now() < deadline) {
          const ms = await once();
          if (!record) continue;
          if (ms < 0) errors++;
          else latencies.push(ms);
        }
      }),
    );
    return { latencies, errors };
  };
  await phase(options.warmupSeconds ?? 1, false);
  const started = Date.now();
  const { latencies, errors } = await phase(options.seconds, true);
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  return summarize(latencies, seconds, errors);
}

/** Seconds each case of a server is served, unrecorded, before its first measured case (BENCH_WARMUP_SECONDS). */
export const WARMUP_PASS_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

/**
 * A fresh server child compiles its code as requests arrive: without this, the first case measured paid
 * the JIT for every request kind after it (at 1 connection, a few hundred requests in the 1 s warm-up of
 * runLoad), which a server running for hours has long paid. Every case is served once, unrecorded, at one
 * connection, before any is measured, on the baseline server and the api alike.
 */
export async function warmUpServer(requests: Array<{ url: string; method?: string; headers?: Record<string, string> }>): Promise<void> {
  if (WARMUP_PASS_SECONDS <= 0) return;
  for (const r of requests) await runLoad({ ...r, concurrency: 1, seconds: WARMUP_PASS_SECONDS, warmupSeconds: 0 });
}

/** The scenario table; each row's ratio is against its own `baseline` row, else against `baseline`. */
export function table(rows: Array<{ name: string; baseline?: string } & LoadResult>, baseline?: string): string {
  const width = Math.max(34, ...rows.map((r) => r.name.length + 2));
  const lines = ['scenario'.padEnd(width) + 'req/s'.padStart(9) + 'p50 ms'.padStart(9) + 'p95 ms'.padStart(9) + 'p99 ms'.padStart(9) + 'errors'.padStart(8) + '  ratio'];
  for (const r of rows) {
    const baseName = r.baseline ?? baseline;
    const base = rows.find((b) => b.name === baseName);
    const ratio = base ? `${((r.rps / base.rps) * 100).toFixed(0)}% of ${baseName}` : '';
    const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-').padStart(9);
    lines.push(r.name.padEnd(width) + r.rps.toFixed(0).padStart(9) + ms(r.p50) + ms(r.p95) + ms(r.p99) + String(r.errors).padStart(8) + `  ${ratio}`);
  }
  return lines.join('\n');
}
