import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { createLogger } from '../../../api/logger';
import { workflowIds } from '../../../workflows/ids';
import { subscriptionExpiresAtQuery, subscriptionLifecycle, subscriptionRenewedSignal } from '../../../workflows';
import { testDatabase } from '../../helpers/db';
import { unique } from '../../helpers/factories';
import { timeSkippingEnvironment } from '../../helpers/temporal';
import { insertSubscription, readSubscription, RecordingPublisher } from './rows';

const DAY = 24 * 60 * 60 * 1000;
const workflowsPath = fileURLToPath(new URL('../../../workflows/index.ts', import.meta.url));

describe('subscriptionLifecycle workflow (time-skipping server, real database)', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let publisher: RecordingPublisher;

  before(async () => {
    [env, { knex }, workflowBundle] = await Promise.all([
      timeSkippingEnvironment(),
      testDatabase(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
  });
  after(() => env?.teardown());

  async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
    publisher = new RecordingPublisher();
    const taskQueue = unique('lifecycle');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities: createActivities({ knex, publisher, logger: createLogger('silent') }),
    });
    return worker.runUntil(fn(taskQueue));
  }

  async function start(taskQueue: string, sub: { id: number; workspaceId: number }, expiresAt: Date) {
    return env.client.workflow.start(subscriptionLifecycle, {
      taskQueue,
      workflowId: workflowIds.subscription(sub.id),
      args: [{ subscriptionId: sub.id, workspaceId: sub.workspaceId, expiresAt: expiresAt.toISOString() }],
    });
  }

  it('keeps the subscription active until expiresAt, then marks it expired and tells the workspace', async () => {
    const expiresAt = new Date((await env.currentTimeMs()) + 30 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(29 * DAY);
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(expiresAt.toISOString());
      expect((await readSubscription(knex, sub.id)).status).to.equal('active');
      expect(publisher.events).to.deep.equal([]);

      expect(await handle.result()).to.deep.equal({ status: 'expired', expiresAt: expiresAt.toISOString() });
      expect(await env.currentTimeMs()).to.be.at.least(expiresAt.getTime());
    });
    expect((await readSubscription(knex, sub.id)).status).to.equal('expired');
    expect(publisher.events).to.deep.equal([{ topic: `ws/${sub.workspaceId}/all`, event: 'subscription.expired', data: { subscriptionId: sub.id } }]);
  });

  it('waits for the new expiry when a renewal signal arrives', async () => {
    const now = await env.currentTimeMs();
    const expiresAt = new Date(now + 30 * DAY);
    const renewedTo = new Date(now + 60 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(10 * DAY);
      await knex('subscriptions').where({ id: sub.id }).update({ expiresAt: renewedTo });
      await handle.signal(subscriptionRenewedSignal, { expiresAt: renewedTo.toISOString() });
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(renewedTo.toISOString());

      await env.sleep(25 * DAY);
      expect((await readSubscription(knex, sub.id)).status).to.equal('active');
      expect((await handle.describe()).status.name).to.equal('RUNNING');

      expect((await handle.result()).status).to.equal('expired');
      expect(await env.currentTimeMs()).to.be.at.least(renewedTo.getTime());
    });
    expect((await readSubscription(knex, sub.id)).status).to.equal('expired');
  });

  it('keeps waiting when the row was renewed but the signal never came', async () => {
    const now = await env.currentTimeMs();
    const expiresAt = new Date(now + 30 * DAY);
    const renewedTo = new Date(now + 60 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(10 * DAY);
      await knex('subscriptions').where({ id: sub.id }).update({ expiresAt: renewedTo });

      await env.sleep(25 * DAY);
      expect((await readSubscription(knex, sub.id)).status).to.equal('active');
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(renewedTo.toISOString());

      expect((await handle.result()).status).to.equal('expired');
    });
    expect(publisher.events).to.have.length(1);
  });

  it('ends without touching a subscription that was canceled meanwhile', async () => {
    const expiresAt = new Date((await env.currentTimeMs()) + 30 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await knex('subscriptions').where({ id: sub.id }).update({ status: 'canceled' });
      expect((await handle.result()).status).to.equal('canceled');
    });
    expect((await readSubscription(knex, sub.id)).status).to.equal('canceled');
    expect(publisher.events).to.deep.equal([]);
  });
});
