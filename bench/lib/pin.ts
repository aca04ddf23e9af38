import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/**
 * Pins this process (the load generator; every thread, `-a`: libuv's pool and V8's helpers too) to the
 * last core and returns the core a server child should use, where taskset exists. BENCH_PIN=0 pins
 * nothing: on a machine shared with other work a pinned process cannot move off a busy core.
 */
export function coreLayout(): { serverCore?: number; loadCore?: number } {
  const cores = os.cpus().length;
  if (cores < 2 || process.env.BENCH_PIN === '0') return {};
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cores - 1), String(process.pid)], { stdio: 'ignore' });
    return { serverCore: 0, loadCore: cores - 1 };
  } catch {
    return {};
  }
}

export function spawnPinned(core: number | undefined, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, argv] = core === undefined ? [command, args] : ['taskset', ['-c', String(core), command, ...args]];
  return spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Resolves with the first line the child prints that matches `re`. */
export function waitForLine(child: ChildProcess, re: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${re}`)), timeoutMs);
    child.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = re.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)));
  });
}
