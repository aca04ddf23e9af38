import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const watchdog = path.join(root, 'test/reliability/support/exitWithParent.ts');

export const JWT_SECRET = 'reliability-secret-'.padEnd(48, 'x');
export const MQTT_INTERNAL_PASSWORD = 'reliability-internal-secret';

/** A free loopback port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ChildApiOptions {
  databaseUrl: string;
  temporalAddress: string;
  /** Extra environment (LOG_LEVEL, TRUST_PROXY...). */
  env?: Record<string, string>;
}

/**
 * `node --import tsx api/main.ts` as a real child process, so a `kill -9` is a real crash: no shutdown
 * hook runs, the embedded broker and every socket die with it. Restarts reuse the port, as a supervisor
 * would, so MQTT clients reconnect to the same URL. `stop()` (call it in an after hook) kills whatever is
 * still running.
 */
export class ChildApi {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-reliability-'));
  port = 0;
  private child?: ChildProcess;
  private exited?: Promise<void>;
  /** The child's stderr and stdout, for failure messages. */
  output = '';

  constructor(private readonly options: ChildApiOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/mqtt`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the api (on a new free port the first time, on the same port afterwards) and waits for it to answer. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error('api already running');
    this.port ||= await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', watchdog, 'api/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(this.port),
        PUBLIC_URL: this.url,
        DATA_DIR: this.dataDir,
        DATABASE_URL: this.options.databaseUrl,
        TEMPORAL_ADDRESS: this.options.temporalAddress,
        TEMPORAL_TASK_QUEUE: `reliability-${process.pid}-${this.port}`,
        JWT_SECRET,
        MQTT_INTERNAL_PASSWORD,
        MQTT_URL: '',
        SMTP_URL: '',
        MIGRATE_ON_START: '0',
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
    });
    const collect = (c: Buffer) => {
      this.output = (this.output + c.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`api exited during start:\n${this.output}`);
      if (await this.answers()) return;
      if (Date.now() > deadline) throw new Error(`api did not answer in ${timeoutMs} ms:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async answers(): Promise<boolean> {
    try {
      const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      return true;
    } catch {
      return false;
    }
  }

  /** `kill -9`: resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    await this.kill();
  }

  /** fetch against the child, body parsed as JSON when it is JSON. */
  async request<T = any>(method: string, p: string, options: { body?: unknown; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ status: number; body: T; ms: number }> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const started = Date.now();
    const res = await fetch(this.url + p, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: body as T, ms: Date.now() - started };
  }
}
