import net from 'node:net';

/** A TCP port nothing listens on right now (the kernel's pick), for servers we start ourselves. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** True when something accepts a TCP connection on host:port within timeoutMs. */
export function portAnswers(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `signal`, waits up to `timeoutMs` for the process to end, then sends `escalate`. */
export async function stopPid(pid: number, signal: NodeJS.Signals, escalate: NodeJS.Signals, timeoutMs = 10_000): Promise<void> {
  process.kill(pid, signal);
  for (let waited = 0; waited < timeoutMs && processAlive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (processAlive(pid)) process.kill(pid, escalate);
}
