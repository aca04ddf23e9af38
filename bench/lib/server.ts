import { readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { ScenarioContext } from './scenario';
import { spawnPinned, waitForLine } from './pin';

/** Scratch files of a bench run (the api child's DATA_DIR, captured SQL); run.ts creates it. */
export const BENCH_DIR = path.join(os.tmpdir(), 'balcao-bench');

export const JWT_SECRET = 'bench-secret-'.padEnd(48, 'b');
export const INTERNAL_PASSWORD = 'bench-internal';

/**
 * Runs a server script (bench/servers/*) in a child pinned to the server core, over the bench database,
 * hands its port (and its process id, for cpuTimeMs) to `body` and stops it afterwards.
 */
export async function withServer<T>(ctx: ScenarioContext, script: string, env: Record<string, string>, body: (port: number, pid: number) => Promise<T>): Promise<T> {
  // BENCH_CPU_PROF=DIR writes a V8 CPU profile of each server child there (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawnPinned(ctx.serverCore, process.execPath, [...profile, '--import', 'tsx', script], {
    DATABASE_URL: ctx.databaseUrl,
    JWT_SECRET,
    MQTT_INTERNAL_PASSWORD: INTERNAL_PASSWORD,
    DATA_DIR: BENCH_DIR,
    NODE_ENV: 'production',
    ...env,
  });
  try {
    const [, port] = await waitForLine(child, /PORT=(\d+)/);
    return await body(Number(port), child.pid!);
  } finally {
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * CPU time (user + system, ms) a process used so far, from /proc (Linux; NaN elsewhere). A pinned server
 * child is `taskset` exec'd into node: the pid is node's.
 */
export function cpuTimeMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux the bench runs on. */
const CLOCK_TICKS = 100;
