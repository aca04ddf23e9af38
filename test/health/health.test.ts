import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { startTestApi, type TestApi } from '../helpers/api';
import { testNativeConnection } from '../helpers/temporal';
import { unique } from '../helpers/factories';
import { createWorkerProbe, WORKER_PROBE_DEADLINE_MS } from '../../api/health/workerProbe';
import type { TemporalGateway } from '../../api/temporal/client';

const workflowsPath = fileURLToPath(new URL('./fixtures/noopWorkflow.ts', import.meta.url));

async function healthUntil(api: TestApi, status: number, path = '/api/health', ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await api.request('GET', path);
    if (res.status === status) return res;
    if (Date.now() > deadline) throw new Error(`health stayed ${res.status} (${JSON.stringify(res.body)}), expected ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('GET /api/health: ready only when a worker polls the task queue', function () {
  this.timeout(90_000);
  let api: TestApi;
  before(async () => {
    // A queue of its own: no other test's worker polls it.
    api = await startTestApi({ temporalTaskQueue: unique('health-queue') });
  });
  after(() => api.close());

  it('answers 503 with worker failing, in the error shape, while no worker polls the queue', async () => {
    const res = await api.request('GET', '/api/health');
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(res.body.data).to.deep.equal({ db: 'ok', temporal: 'ok', mqtt: 'ok', worker: 'fail' });
    expect(res.body.errors).to.have.length(1);
    expect(res.body.errors[0]).to.include({ type: 'ServiceUnavailableError', key: 'worker' });
    expect(res.body.errors[0].descriptions[0]).to.include(api.config.temporalTaskQueue);
  });

  it('?parts= checks only the parts named: an api run without a worker on purpose can still be probed', async () => {
    const res = await api.request('GET', '/api/health?parts=db,temporal,mqtt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.deep.equal({ db: 'ok', temporal: 'ok', mqtt: 'ok' });
    const bad = await api.request('GET', '/api/health?parts=db,disco');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ type: 'ValidationError', key: 'parts' });
  });

  it('answers 200 with worker ok once a worker polls the queue', async () => {
    const worker = await Worker.create({
      connection: await testNativeConnection(),
      taskQueue: api.config.temporalTaskQueue,
      workflowsPath,
      activities: { ping: async () => 'pong' },
    });
    await worker.runUntil(async () => {
      const res = await healthUntil(api, 200);
      expect(res.body.data).to.deep.equal({ db: 'ok', temporal: 'ok', mqtt: 'ok', worker: 'ok' });
    });
  });
});

describe('worker probe: DescribeTaskQueue on both sides of the queue, cached briefly', () => {
  /**
   * A gateway whose client answers DescribeTaskQueue with the given pollers per task queue type (1 workflow, 2
   * activity); each call notes the gRPC deadline it runs under (the client's withDeadline), if any.
   */
  function gateway(pollers: Record<number, number>, calls: { taskQueueType: number; name: string; deadline?: number }[]) {
    let deadline: number | undefined;
    const client = {
      async withDeadline<R>(at: number | Date, fn: () => Promise<R>): Promise<R> {
        deadline = Number(at);
        try {
          return await fn();
        } finally {
          deadline = undefined;
        }
      },
      workflowService: {
        describeTaskQueue: async (req: { taskQueue: { name: string }; taskQueueType: number }) => {
          calls.push({ taskQueueType: req.taskQueueType, name: req.taskQueue.name, deadline });
          return { pollers: Array.from({ length: pollers[req.taskQueueType] ?? 0 }, (_, i) => ({ identity: `w${i}` })) };
        },
      },
    };
    return { taskQueue: 'balcao', client: async () => client } as unknown as Pick<TemporalGateway, 'client' | 'taskQueue'>;
  }

  it('is ready only when the queue has pollers on the workflow side and on the activity side', async () => {
    const calls: { taskQueueType: number; name: string }[] = [];
    expect(await createWorkerProbe(gateway({ 1: 1, 2: 1 }, calls), 'default')()).to.equal(true);
    expect(calls.map((c) => c.taskQueueType).sort()).to.deep.equal([1, 2]);
    expect(calls.every((c) => c.name === 'balcao')).to.equal(true);
    expect(await createWorkerProbe(gateway({ 1: 1 }, []), 'default')()).to.equal(false);
    expect(await createWorkerProbe(gateway({ 2: 1 }, []), 'default')()).to.equal(false);
    const failing = { taskQueue: 'balcao', client: async () => Promise.reject(new Error('sem conexão')) } as unknown as Pick<TemporalGateway, 'client' | 'taskQueue'>;
    expect(await createWorkerProbe(failing, 'default')()).to.equal(false);
  });

  it('asks under a gRPC deadline, so a Temporal that never answers leaves no call pending', async () => {
    const calls: { taskQueueType: number; name: string; deadline?: number }[] = [];
    const before = Date.now();
    expect(await createWorkerProbe(gateway({ 1: 1, 2: 1 }, calls), 'default')()).to.equal(true);
    expect(calls).to.have.length(2);
    for (const c of calls) expect(c.deadline, `type ${c.taskQueueType}`).to.be.within(before + WORKER_PROBE_DEADLINE_MS, Date.now() + WORKER_PROBE_DEADLINE_MS);
  });

  it('tells why a call failed (not the same as no worker), once per cause until a call succeeds', async () => {
    let now = 1000;
    let failure: Error | null = new Error('7 PERMISSION_DENIED: Request unauthorized.');
    const client = {
      withDeadline: <R>(_at: number, fn: () => Promise<R>) => fn(),
      workflowService: {
        describeTaskQueue: async () => {
          if (failure) throw failure;
          return { pollers: [{ identity: 'w' }] };
        },
      },
    };
    const heard: string[] = [];
    const probe = createWorkerProbe({ taskQueue: 'balcao', client: async () => client } as unknown as Pick<TemporalGateway, 'client' | 'taskQueue'>, 'default', {
      cacheMs: 2000,
      now: () => now,
      onError: (err) => heard.push((err as Error).message),
    });
    for (let i = 0; i < 3; i++, now += 2000) expect(await probe()).to.equal(false);
    expect(heard).to.deep.equal(['7 PERMISSION_DENIED: Request unauthorized.']);
    failure = new Error('5 NOT_FOUND: Namespace balcao is not found.');
    expect(await probe()).to.equal(false);
    now += 2000;
    failure = null;
    expect(await probe()).to.equal(true);
    now += 2000;
    failure = new Error('5 NOT_FOUND: Namespace balcao is not found.');
    expect(await probe()).to.equal(false);
    expect(heard).to.deep.equal(['7 PERMISSION_DENIED: Request unauthorized.', '5 NOT_FOUND: Namespace balcao is not found.', '5 NOT_FOUND: Namespace balcao is not found.']);
  });

  it('asks Temporal once per cache interval however often health is called', async () => {
    const calls: { taskQueueType: number; name: string }[] = [];
    let now = 1000;
    const probe = createWorkerProbe(gateway({ 1: 1, 2: 1 }, calls), 'default', { cacheMs: 2000, now: () => now });
    await Promise.all([probe(), probe(), probe()]);
    now += 1999;
    await probe();
    expect(calls).to.have.length(2);
    now += 1;
    await probe();
    expect(calls).to.have.length(4);
  });
});
