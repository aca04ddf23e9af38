import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { loadConfig, type Config } from '../../../api/config';
import { createLogger } from '../../../api/logger';
import { paymentProvider } from '../../../api/billing/providers';
import { workflowIds } from '../../../workflows/ids';
import { subscriptionExpiresAtQuery, subscriptionLifecycle, subscriptionPaidSignal } from '../../../workflows';
import { addPeriod, GRACE_DAYS } from '../../../workflows/subscription/periods';
import { testDatabase } from '../../helpers/db';
import { makeOperator } from '../../helpers/factories';
import { timeSkippingEnvironment } from '../../helpers/temporal';
import { until } from '../../channels/helpers';
import { DAY, insertPaidSubscription, insertTrial, RecordingMailer, RecordingPublisher, subscriptionRow } from '../../billing/subscriptionFixtures';

const workflowsPath = fileURLToPath(new URL('../../../workflows/index.ts', import.meta.url));
const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

describe('subscriptionLifecycle: renewal, payment, grace, expiry, cancellation (time-skipping server, real database, test-mode provider)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let config: Config;
  let mailer: RecordingMailer;
  let publisher: RecordingPublisher;

  before(async () => {
    [{ knex }, workflowBundle] = await Promise.all([testDatabase(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    config = loadConfig({ DATA_DIR: '/tmp/balcao-lifecycle-test', JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', PUBLIC_URL: 'https://balcao.exemplo.com.br' });
  });
  // A clock of its own per test: a lifecycle left running (a renewed plan waits for its next period) would
  // move the shared clock of the next test.
  beforeEach(async () => {
    env = await timeSkippingEnvironment();
  });
  afterEach(() => env?.teardown());

  async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
    mailer = new RecordingMailer();
    publisher = new RecordingPublisher();
    const taskQueue = `renewal-${Math.random().toString(36).slice(2)}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities: createActivities({ knex, publisher, logger, config }, { billing: { mailer } }),
    });
    return worker.runUntil(fn(taskQueue));
  }

  const start = (taskQueue: string, sub: { id: number; workspaceId: number }, expiresAt: Date) =>
    env.client.workflow.start(subscriptionLifecycle, {
      taskQueue,
      workflowId: workflowIds.subscription(sub.id),
      args: [{ subscriptionId: sub.id, workspaceId: sub.workspaceId, expiresAt: expiresAt.toISOString() }],
    });

  const renewalOf = (subscriptionId: number) => knex('invoices').where({ subscriptionId, kind: 'renewal' }).orderBy('id', 'desc').first();
  const transactionOf = (invoiceId: number) => knex('invoiceTransactions').where({ invoiceId }).first();

  /** A Business monthly plan paid 2 days ago, ending in 28 days. */
  async function businessPlan(over: Partial<Parameters<typeof insertPaidSubscription>[1]> = {}) {
    const now = await env.currentTimeMs();
    const expiresAt = new Date(now + 28 * DAY);
    const sub = await insertPaidSubscription(knex, { periodStart: new Date(now - 2 * DAY), expiresAt, ...over });
    return { sub, expiresAt: over.expiresAt ?? expiresAt };
  }

  it('issues the renewal 7 days before the end (charged, mailed with the payment link, grace set); paid, the period is extended to the same day next month', async () => {
    const { sub, expiresAt } = await businessPlan();
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(20 * DAY);
      expect(await renewalOf(sub.id)).to.equal(undefined);
      await env.sleep(2 * DAY);

      const renewal = await renewalOf(sub.id);
      expect(renewal).to.include({ status: 'pending', total: 44_900, discount: 0, amount: 44_900, plan: 'business', months: 1 });
      expect(renewal.periodStart.toISOString()).to.equal(expiresAt.toISOString());
      expect(renewal.expiresAt.toISOString()).to.equal(addPeriod(expiresAt.toISOString(), 1));
      const tx = await transactionOf(renewal.id);
      expect(tx.providerReference).to.match(/^test_pay_/);
      expect(tx.paymentData.brCode).to.be.a('string');
      expect(mailer.sent).to.have.length(1);
      expect(mailer.sent[0]!.to).to.equal(sub.payerEmail);
      expect(mailer.sent[0]!.text).to.include(`https://balcao.exemplo.com.br/settings/billing/payment/${renewal.id}`);
      expect(mailer.sent[0]!.text).to.include('R$ 449,00');
      expect((await subscriptionRow(knex, sub.id)).graceEndsAt.toISOString()).to.equal(new Date(expiresAt.getTime() + GRACE_DAYS * DAY).toISOString());

      // The payer pays: the notification is applied (here without a Temporal client), then the signal comes.
      await paymentProvider({ knex, logger, config }).simulatePayment!(tx.providerReference);
      await handle.signal(subscriptionPaidSignal, { invoiceId: renewal.id });
      await until(async () => (await subscriptionRow(knex, sub.id)).expiresAt.getTime() !== expiresAt.getTime());
      const after = await subscriptionRow(knex, sub.id);
      expect(after.expiresAt.toISOString()).to.equal(addPeriod(expiresAt.toISOString(), 1));
      expect(after).to.include({ status: 'active', graceEndsAt: null, license: 'business' });
      expect(Number(after.paidAmount)).to.be.greaterThan(44_900);
      expect((await knex('invoices').where({ id: renewal.id }).first()).appliedAt).to.be.instanceOf(Date);
      expect(publisher.named('subscription.updated').at(-1)!.data.subscription).to.include({ id: sub.id, expiresAt: after.expiresAt.toISOString() });
      await until(async () => (await handle.query(subscriptionExpiresAtQuery)) === after.expiresAt.toISOString());
    });
  });

  it('unpaid: reminds 1 day before, keeps the plan through 3 days of grace, then expires it and tells the workspace', async () => {
    const { sub, expiresAt } = await businessPlan();
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(28 * DAY + DAY);
      expect((await subscriptionRow(knex, sub.id)).status).to.equal('active');
      expect(publisher.named('subscription.expired')).to.deep.equal([]);

      expect(await handle.result()).to.deep.include({ status: 'expired' });
      expect(await env.currentTimeMs()).to.be.at.least(expiresAt.getTime() + GRACE_DAYS * DAY);
    });
    expect((await subscriptionRow(knex, sub.id)).status).to.equal('expired');
    expect(publisher.named('subscription.expired')).to.deep.equal([{ topic: `ws/${sub.workspaceId}/all`, event: 'subscription.expired', data: { subscriptionId: sub.id } }]);
    expect(mailer.sent.map((m) => m.subject)).to.deep.equal(['Fatura de renovação do Balcão: R$ 449,00', 'Sua assinatura do Balcão vence amanhã: fatura de R$ 449,00 em aberto']);
    // The renewal stays payable: a late boleto still brings the plan back.
    expect((await renewalOf(sub.id)).status).to.equal('pending');
  });

  it('a canceled plan issues no renewal and ends as canceled at the end of its paid period, without grace', async () => {
    const now = await env.currentTimeMs();
    const { sub, expiresAt } = await businessPlan({ canceledAt: new Date(now) });
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(28 * DAY - 3_600_000);
      expect((await subscriptionRow(knex, sub.id)).status).to.equal('active');
      await env.sleep(2 * 3_600_000);
      await until(async () => (await subscriptionRow(knex, sub.id)).status === 'canceled');
      expect(await handle.result()).to.deep.include({ status: 'canceled' });
    });
    expect(await renewalOf(sub.id)).to.equal(undefined);
    expect(mailer.sent).to.deep.equal([]);
    expect(publisher.named('subscription.expired')).to.have.length(1);
  });

  it('a lost webhook: before expiring, the lifecycle asks the provider, finds the renewal paid and extends the period', async () => {
    const { sub, expiresAt } = await businessPlan();
    await withWorker(async (taskQueue) => {
      await start(taskQueue, sub, expiresAt);
      await env.sleep(22 * DAY);
      const renewal = await renewalOf(sub.id);
      const tx = await transactionOf(renewal.id);
      // Paid at the provider; the notification never arrives.
      await knex('test_mode_charges').where({ providerReference: tx.providerReference }).update({ status: 'paid', paidAt: new Date(await env.currentTimeMs()) });

      await env.sleep(10 * DAY);
      await until(async () => (await subscriptionRow(knex, sub.id)).expiresAt.getTime() !== expiresAt.getTime());
      const after = await subscriptionRow(knex, sub.id);
      expect(after.status).to.equal('active');
      expect(after.expiresAt.toISOString()).to.equal(addPeriod(expiresAt.toISOString(), 1));
      expect(await knex('payment_events').where({ providerReference: tx.providerReference }).pluck('event')).to.deep.equal(['CHARGE_QUERIED']);
      expect((await knex('invoices').where({ id: renewal.id }).first()).status).to.equal('paid');
      expect(publisher.named('subscription.expired')).to.deep.equal([]);
      expect(publisher.named('invoice.paid')).to.deep.equal([{ topic: `ws/${sub.workspaceId}/all`, event: 'invoice.paid', data: { invoiceId: renewal.id, transactionId: tx.id } }]);
    });
  });

  it('a downgrade scheduled for the period end: the renewal charges the smaller plan, which takes effect at the end', async () => {
    const now = await env.currentTimeMs();
    const expiresAt = new Date(now + 28 * DAY);
    const sub = await insertPaidSubscription(knex, { license: 'enterprise', periodStart: new Date(now - 2 * DAY), expiresAt });
    const change = { license: 'business', agents: 5, whatsapp: 1, instagram: 0, campaign: 0, months: 1, total: 44_900, at: expiresAt.toISOString() };
    await knex('subscriptions').where({ id: sub.id }).update({ scheduledChange: JSON.stringify(change) });
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, sub, expiresAt);
      await env.sleep(22 * DAY);
      const renewal = await renewalOf(sub.id);
      expect(renewal).to.include({ plan: 'business', amount: 44_900, agents: 5, campaignUnits: 0 });
      expect((await subscriptionRow(knex, sub.id)).license).to.equal('enterprise');

      await paymentProvider({ knex, logger, config }).simulatePayment!((await transactionOf(renewal.id)).providerReference);
      await handle.signal(subscriptionPaidSignal, { invoiceId: renewal.id });
      await until(async () => (await subscriptionRow(knex, sub.id)).expiresAt.getTime() !== expiresAt.getTime());
      expect((await subscriptionRow(knex, sub.id)).license).to.equal('enterprise');

      await env.sleep(7 * DAY);
      await until(async () => (await subscriptionRow(knex, sub.id)).license === 'business');
      const after = await subscriptionRow(knex, sub.id);
      expect(after).to.include({ agents: 5, campaignUnits: 0, total: 44_900, scheduledChange: null, status: 'active' });
      expect(after.expiresAt.toISOString()).to.equal(addPeriod(expiresAt.toISOString(), 1));
    });
  });

  it('a trial: reminders 7 and 1 days before to the owners, then expired at its end (no grace)', async () => {
    const now = await env.currentTimeMs();
    const expiresAt = new Date(now + 30 * DAY);
    const { workspaceId } = await insertPaidSubscription(knex, { periodStart: new Date(now - 60 * DAY), expiresAt: new Date(now - 30 * DAY) });
    await knex('subscriptions').where({ workspaceId }).update({ status: 'expired' });
    const owner = await makeOperator(knex, config.jwtSecret, { id: workspaceId, name: 'Loja' }, 10);
    const id = await insertTrial(knex, workspaceId, expiresAt);
    await knex('subscriptions').where({ id }).update({ periodStart: new Date(now) });
    await withWorker(async (taskQueue) => {
      const handle = await start(taskQueue, { id, workspaceId }, expiresAt);
      await env.sleep(30 * DAY - 3_600_000);
      expect((await subscriptionRow(knex, id)).status).to.equal('active');
      expect(await handle.result()).to.deep.include({ status: 'expired' });
    });
    expect(mailer.sent.map((m) => [m.to, m.subject])).to.deep.equal([
      [owner.email, 'Sua avaliação do Balcão termina em 7 dias'],
      [owner.email, 'Sua avaliação do Balcão termina amanhã'],
    ]);
    expect(mailer.sent[0]!.text).to.include('https://balcao.exemplo.com.br/settings/billing/subscription');
  });
});
