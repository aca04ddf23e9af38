import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { createLogger } from '../../../api/logger';
import { createTemporalGateway, type TemporalGateway } from '../../../api/temporal/client';
import { workflowIds } from '../../../workflows/ids';
import { subscriptionExpiresAtQuery } from '../../../workflows';
import { testDatabase } from '../../helpers/db';
import { unique } from '../../helpers/factories';
import { testNativeConnection, testTemporalAddress } from '../../helpers/temporal';
import { insertSubscription, RecordingPublisher } from './rows';

const DAY = 24 * 60 * 60 * 1000;
const workflowsPath = fileURLToPath(new URL('../../../workflows/index.ts', import.meta.url));

describe('Temporal gateway: subscription lifecycle (dev server)', function () {
  this.timeout(60_000);
  let knex: Knex;
  let connection: NativeConnection;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let gateway: TemporalGateway;
  let client: Client;
  let taskQueue: string;

  before(async () => {
    [{ knex }, connection, workflowBundle] = await Promise.all([
      testDatabase(),
      testNativeConnection(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
  });
  after(() => connection?.close());

  beforeEach(async () => {
    taskQueue = unique('gateway');
    gateway = createTemporalGateway({ temporalAddress: await testTemporalAddress(), temporalNamespace: 'default', temporalTaskQueue: taskQueue });
    client = await gateway.client();
  });
  afterEach(() => gateway.close());

  async function withWorker(fn: () => Promise<void>): Promise<void> {
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowBundle,
      activities: createActivities({ knex, publisher: new RecordingPublisher(), logger: createLogger('silent') }),
    });
    await worker.runUntil(fn());
  }

  it('starts one subscriptionLifecycle under subscription:{id} however often it is asked', async () => {
    const expiresAt = new Date(Date.now() + 30 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    const input = { subscriptionId: sub.id, workspaceId: sub.workspaceId, expiresAt: expiresAt.toISOString() };
    await withWorker(async () => {
      await gateway.startSubscriptionLifecycle(input);
      const handle = client.workflow.getHandle(workflowIds.subscription(sub.id));
      const first = await handle.describe();
      await gateway.startSubscriptionLifecycle(input);
      const second = await handle.describe();

      expect(first.workflowId).to.equal(`subscription:${sub.id}`);
      expect(first.type).to.equal('subscriptionLifecycle');
      expect(first.taskQueue).to.equal(taskQueue);
      expect(second.runId).to.equal(first.runId);
      expect(second.status.name).to.equal('RUNNING');
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(input.expiresAt);
      await handle.terminate('test done');
    });
  });

  it('hands a renewal to the running lifecycle, and starts a new one once the old one has ended', async () => {
    const expiresAt = new Date(Date.now() + 30 * DAY);
    const renewedTo = new Date(Date.now() + 60 * DAY);
    const sub = await insertSubscription(knex, expiresAt);
    const input = { subscriptionId: sub.id, workspaceId: sub.workspaceId, expiresAt: expiresAt.toISOString() };
    await withWorker(async () => {
      await gateway.startSubscriptionLifecycle(input);
      const handle = client.workflow.getHandle(workflowIds.subscription(sub.id));
      const { runId } = await handle.describe();

      await gateway.renewSubscriptionLifecycle({ ...input, expiresAt: renewedTo.toISOString() });
      expect((await handle.describe()).runId).to.equal(runId);
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(renewedTo.toISOString());

      await handle.terminate('plan lapsed');
      await gateway.renewSubscriptionLifecycle({ ...input, expiresAt: renewedTo.toISOString() });
      const restarted = await handle.describe();
      expect(restarted.runId).to.not.equal(runId);
      expect(restarted.status.name).to.equal('RUNNING');
      expect(await handle.query(subscriptionExpiresAtQuery)).to.equal(renewedTo.toISOString());
      await handle.terminate('test done');
    });
  });
});
