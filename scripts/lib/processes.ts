import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * Spawns a child whose output is prefixed with its name. npm start passes `detached: true`: the child gets
 * a process group of its own, so a Ctrl-C reaches only npm start, which stops the children in order
 * (stopAll); the api and worker end themselves if npm start dies (api/exitWithParent.ts).
 */
export function startProcess(name: string, command: string, args: string[], options: SpawnOptions = {}): Managed {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const prefix = (chunk: Buffer, out: NodeJS.WriteStream) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) out.write(`[${name}] ${line}\n`);
  };
  child.stdout?.on('data', (c: Buffer) => prefix(c, process.stdout));
  child.stderr?.on('data', (c: Buffer) => prefix(c, process.stderr));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, exited };
}

/**
 * Stops the children one after another, in the order given (SIGTERM, SIGKILL after the grace period), so
 * each finishes while what it depends on is still up (the worker before the api and Temporal).
 */
export async function stopAll(children: Managed[], graceMs = 8000): Promise<void> {
  for (const c of children) {
    if (c.child.exitCode !== null || c.child.signalCode !== null) continue;
    c.child.kill('SIGTERM');
    await Promise.race([c.exited, new Promise((r) => setTimeout(r, graceMs))]);
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  }
}

export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, failed?: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    if (failed?.()) throw new Error(`${what}: o processo terminou antes de ficar pronto`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} não respondeu em ${Math.round(timeoutMs / 1000)} s`);
}

export { freePort, portAnswers } from '../../api/system/processes';
