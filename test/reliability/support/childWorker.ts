import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApi } from '../../helpers/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `node activities/worker.ts` as a real child: `kill -9` is a real crash (no drain, no shutdown hook). */
export class ChildWorker {
  private child?: ChildProcess;
  output = '';
  constructor(private readonly env: Record<string, string>) {}

  async start(timeoutMs = 60_000): Promise<void> {
    // No exitWithParent preload here: the worker's workflow thread inherits execArgv and cannot load it.
    const child = spawn(process.execPath, ['--import', 'tsx', 'activities/worker.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...this.env } });
    this.child = child;
    process.once('exit', () => child.kill('SIGKILL'));
    let started = false;
    const collect = (c: Buffer) => {
      const text = c.toString();
      this.output = (this.output + text).slice(-20_000);
      if (text.includes('worker started')) started = true;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const deadline = Date.now() + timeoutMs;
    while (!started) {
      if (child.exitCode !== null) throw new Error(`worker exited during start:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`worker did not start:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A worker for the in-process test api: same database, Temporal task queue and secrets, publishing to the
 * test api's embedded broker with its internal credential; `env` adds or overrides variables.
 */
export function workerForTestApi(api: TestApi, dataDirPrefix: string, env: Record<string, string> = {}): ChildWorker {
  return new ChildWorker({
    DATABASE_URL: api.config.databaseUrl,
    TEMPORAL_ADDRESS: api.config.temporalAddress,
    TEMPORAL_TASK_QUEUE: api.config.temporalTaskQueue,
    PORT: String(new URL(api.url).port),
    MQTT_URL: '',
    MQTT_INTERNAL_PASSWORD: api.config.mqttInternalPassword,
    JWT_SECRET: api.config.jwtSecret,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), dataDirPrefix)),
    LOG_LEVEL: 'info',
    ...env,
  });
}
