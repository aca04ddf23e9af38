/** What the channel tests share: the Temporal worker around the api, the owner of a fresh workspace, and waiting for a message's delivery. */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import type { ChannelSendOptions } from '../../activities/channels/sendChannelMessage';
import { createLogger } from '../../api/logger';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { workflowIds } from '../../workflows/ids';
import { postUpdate } from '../fakes/telegram';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until it answers true; throws after `ms`. */
export async function until(probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

/** The Temporal connection and the bundled workflows: made once per suite (bundling takes seconds). */
export interface WorkerSetup {
  connection: NativeConnection;
  workflowBundle: WorkflowBundleWithSourceMap;
}

export async function prepareWorker(): Promise<WorkerSetup> {
  const [connection, workflowBundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
  return { connection, workflowBundle };
}

/** Runs `fn` while a worker on the api's task queue runs the workflows with the real activities (retry timings as given). */
export async function withChannelWorker(
  api: TestApi,
  setup: WorkerSetup,
  fn: () => Promise<void>,
  options: { channels: Partial<ChannelSendOptions>; publisher?: ActivityDeps['publisher'] },
): Promise<void> {
  const worker = await Worker.create({
    connection: setup.connection,
    taskQueue: api.config.temporalTaskQueue,
    workflowBundle: setup.workflowBundle,
    activities: createActivities({ knex: api.deps.knex, publisher: options.publisher ?? api.deps.publisher, logger: createLogger('silent'), config: api.config }, { channels: options.channels }),
  });
  await worker.runUntil(fn());
}

/** A fresh workspace and its owner (level 10). */
export async function makeOwner(api: TestApi): Promise<{ ws: TestWorkspace; owner: TestOperator }> {
  const ws = await makeWorkspace(api.deps.knex);
  const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  return { ws, owner };
}

export const messageRow = (api: TestApi, id: number) => api.deps.knex('messages').where({ id }).first();

/**
 * Waits for the message's `channel-send:{id}` workflow to return and answers its result ('sent', 'failed'):
 * once it has returned no further attempt can reach the provider, so counting its calls is final.
 */
export async function sendWorkflowResult(api: TestApi, id: number): Promise<string> {
  const client = await api.deps.temporal!.client();
  return (await client.workflow.getHandle(workflowIds.channelSend(id)).result()) as string;
}

/** Waits until the message's deliveryState is `state`. */
export const untilDeliveryState = (api: TestApi, id: number, state: 'sent' | 'failed', ms?: number) =>
  until(async () => (await messageRow(api, id)).deliveryState === state, ms);

/** The agent posts a message through POST /api/inbox/messages (expects 201) and gets its stored id. */
export async function postAgentMessage(api: TestApi, owner: TestOperator, body: Record<string, unknown>): Promise<number> {
  const res = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { type: 0, ...body } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data.id as number;
}

/**
 * Posts an Update the way Telegram does and, when it is answered 200, waits until the hook store has taken
 * every stored Telegram update (processed, or failed and left to the sweep): the hook answers once the
 * update is stored, before it is processed (api/channels/hooks/store.ts).
 */
export async function deliverTelegramUpdate(api: TestApi, url: string, update: unknown, secretToken: string | null): Promise<Response> {
  const res = await postUpdate(url, update, secretToken);
  if (res.status === 200) await until(async () => !(await api.deps.knex('hook_events').where({ source: 'telegram', attempts: 0 }).whereNull('processed_at').first('id')));
  return res;
}
