import { spawn, type ChildProcess } from 'node:child_process';
import type { Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LogLevel, NativeConnection } from '@temporalio/worker';
import { ensureTemporalTools } from '../../scripts/lib/tools';
import { freePort } from '../../api/system/processes';

// The SDK packages load lazily: every test run loads this module through the root hooks.

interface DevServer {
  address: string;
  child: ChildProcess;
}

interface TestTemporalState {
  shared?: Promise<DevServer>;
  running?: ChildProcess;
  exitHook?: boolean;
}

/** On globalThis: a second module instance of this file (tsx, dynamic import) must share the run's server. */
const state: TestTemporalState = ((globalThis as Record<symbol, unknown>)[Symbol.for('balcao.testTemporal')] ??= {}) as TestTemporalState;

// Whatever way the test process ends, the dev server must not outlive it.
if (!state.exitHook) {
  state.exitHook = true;
  process.once('exit', () => state.running?.kill('SIGKILL'));
}

async function answers(address: string): Promise<boolean> {
  const { Connection: ClientConnection } = await import('@temporalio/client');
  let connection: Connection | undefined;
  try {
    connection = await ClientConnection.connect({ address, connectTimeout: '1s' });
    // The frontend answers before the namespace exists; tests need the namespace.
    await connection.workflowService.describeNamespace({ namespace: 'default' });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

async function startOnce(cli: string): Promise<DevServer> {
  const port = await freePort();
  // No --db-filename: the store is in memory and dies with the process.
  const child = spawn(cli, ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  state.running = child;
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`temporal server start-dev exited (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`);
    if (await answers(address)) return { address, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`temporal server start-dev did not answer on ${address} within 60 s: ${stderr.trim()}`);
}

async function startDevServer(): Promise<DevServer> {
  const { temporalCli } = await ensureTemporalTools();
  // Another process may grab the free port before the server binds it; try a fresh one then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(temporalCli);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/**
 * Address of this run's Temporal dev server: one `temporal server start-dev` (from .tools/, in memory,
 * free port) started on first use and stopped by the root hooks. TEST_TEMPORAL_ADDRESS uses a server
 * that is already running instead.
 */
export async function testTemporalAddress(): Promise<string> {
  if (process.env.TEST_TEMPORAL_ADDRESS) return process.env.TEST_TEMPORAL_ADDRESS;
  state.shared ??= startDevServer().catch((err: unknown) => {
    state.shared = undefined;
    throw err;
  });
  return (await state.shared).address;
}

export async function stopTestTemporal(): Promise<void> {
  if (!state.shared) return;
  const server = await state.shared.catch(() => undefined);
  state.shared = undefined;
  state.running = undefined;
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  // The store is in memory: there is nothing to flush, so no graceful shutdown to wait for.
  server.child.kill('SIGKILL');
  await exited;
}

let runtimeInstalled = false;

/** Worker logs at WARN (TEST_TEMPORAL_LOG_LEVEL to change) instead of every state change on stderr. */
async function quietRuntime(): Promise<void> {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const { DefaultLogger, Runtime } = await import('@temporalio/worker');
  try {
    const level = (process.env.TEST_TEMPORAL_LOG_LEVEL ?? 'WARN') as LogLevel;
    // Core warns about capabilities the time-skipping server does not advertise; only errors matter here.
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level === 'WARN' ? 'ERROR' : level, other: 'ERROR' }, forward: {} } } });
  } catch {
    // Some worker code ran before this helper: keep the SDK's default runtime.
  }
}

/** A worker connection to this run's dev server (see testTemporalAddress). */
export async function testNativeConnection(): Promise<NativeConnection> {
  await quietRuntime();
  const { NativeConnection } = await import('@temporalio/worker');
  return NativeConnection.connect({ address: await testTemporalAddress() });
}

/** The Java time-skipping test server from .tools/ (timers complete as soon as nothing else is pending). */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const { testServer } = await ensureTemporalTools();
  await quietRuntime();
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: testServer } } });
}

/** A private dev server from .tools/ managed by the SDK, for tests that want their own. */
export async function localEnvironment(): Promise<TestWorkflowEnvironment> {
  const { temporalCli } = await ensureTemporalTools();
  await quietRuntime();
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  return TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: temporalCli }, ip: '127.0.0.1' } });
}
