import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import type { MetaGraphFake } from '../fakes/metaGraph';
import { prepareWorker, type WorkerSetup } from '../channels/helpers';

/** Steps the WhatsApp Cloud e2e tests (line, new outbound message, campaigns) share: the Graph fake, the worker, the agent. */

/** Starts the Meta Graph fake and the worker's bundle before the describe's tests, stops both after; `bind` receives the bundle. */
export function useGraphFakeAndWorker(graph: MetaGraphFake, bind: (setup: WorkerSetup) => void): void {
  let setup: WorkerSetup | undefined;
  before(async () => {
    await graph.start();
    setup = await prepareWorker();
    bind(setup);
  });
  after(async () => {
    await setup?.connection.close();
    await graph.stop();
  });
}

/** A new workspace and its agent of level 10 named Ana Agente. */
export async function makeAgent(api: TestApi): Promise<TestOperator> {
  const ws = await makeWorkspace(api.deps.knex);
  return makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
}

type ActivityOptions = NonNullable<Parameters<typeof createActivities>[1]>;

/**
 * Runs `fn` while a worker executes the app's workflows and activities, as `npm start`'s worker does beside the app:
 * a failed delivery retried quickly (3 attempts, 100–300 ms apart); `more` adds options (e.g. campaigns').
 */
export async function withAppWorker(api: TestApi, setup: WorkerSetup, fn: () => Promise<void>, more: Omit<ActivityOptions, 'channels'> = {}): Promise<void> {
  const worker = await Worker.create({
    connection: setup.connection,
    taskQueue: api.config.temporalTaskQueue,
    workflowBundle: setup.workflowBundle,
    activities: createActivities(
      { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config },
      { channels: { initialDelayMs: 100, maxDelayMs: 300, maxAttempts: 3 }, ...more },
    ),
  });
  await worker.runUntil(fn());
}
