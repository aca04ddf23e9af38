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

/**
 * Lets this process (every thread) run on every core again and answers how to restore its pin: what it
 * spawns meanwhile inherits its affinity, and a topology of many processes (the cluster scenario) must not
 * start confined to the load generator's core. A no-op where taskset is missing or nothing was pinned.
 */
export function unpinSelf(): () => void {
  const cores = os.cpus().length;
  let mask: string | undefined;
  try {
    mask = /affinity mask:\s*([0-9a-f]+)/i.exec(execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }))?.[1];
    execFileSync('taskset', ['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return () => undefined;
  }
  return () => {
    if (mask) execFileSync('taskset', ['-a', '-p', mask, String(process.pid)], { stdio: 'ignore' });
  };
}
