import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { startTestApi, type TestApi } from '../helpers/api';
import { testNativeConnection } from '../helpers/temporal';
import type { MailMessage, Mailer } from '../../api/mail/mailer';
import type { Publisher } from '../../api/realtime/publisher';
import { makeWorkspace, unique, type TestWorkspace } from '../helpers/factories';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export const DAY = 86_400_000;
/** A CPF and a CNPJ with valid check digits (Receita Federal's examples). */
export const CPF = '529.982.247-25';
export const CNPJ = '11.444.777/0001-61';

export interface PaidPlan {
  license?: 'basic' | 'business' | 'enterprise';
  agents?: number;
  numbers?: number;
  campaignUnits?: number;
  months?: 1 | 12;
  total?: number;
  paidAmount?: number;
  periodStart: Date;
  expiresAt: Date;
  canceledAt?: Date | null;
  /** The payer's e-mail on the invoice that paid the current period. */
  payerEmail?: string;
  method?: 'pix' | 'boleto';
}

/**
 * A subscription paid for the window [periodStart, expiresAt), as a paid order would leave it: the row and the
 * paid, applied invoice that names the payer (CNPJ, e-mail) and the method the renewal reuses.
 */
export async function insertPaidSubscription(knex: Knex, plan: PaidPlan, workspace?: TestWorkspace): Promise<{ id: number; workspaceId: number; payerEmail: string }> {
  const ws = workspace ?? (await makeWorkspace(knex));
  const license = plan.license ?? 'business';
  const total = plan.total ?? (license === 'basic' ? 14_900 : license === 'business' ? 44_900 : 79_900);
  const [sub] = await knex('subscriptions')
    .insert({
      workspaceId: ws.id,
      license,
      status: 'active',
      agents: plan.agents ?? (license === 'basic' ? 1 : license === 'business' ? 5 : 10),
      numbers: plan.numbers ?? 1,
      instagramUnits: 0,
      campaignUnits: plan.campaignUnits ?? (license === 'enterprise' ? 1 : 0),
      months: plan.months ?? 1,
      total,
      paidAmount: plan.paidAmount ?? total,
      autorenewal: !plan.canceledAt,
      canceledAt: plan.canceledAt ?? null,
      periodStart: plan.periodStart,
      expiresAt: plan.expiresAt,
      billingDay: null,
    })
    .returning('id');
  const payerEmail = plan.payerEmail ?? `${unique('financeiro')}@exemplo.com.br`;
  const [invoice] = await knex('invoices')
    .insert({
      workspaceId: ws.id,
      subscriptionId: sub.id,
      orderNumber: unique('B').replace(/[^A-Za-z0-9]/g, '').slice(0, 40),
      kind: 'new',
      plan: license,
      months: plan.months ?? 1,
      total,
      amount: total,
      status: 'paid',
      paymentMethod: plan.method ?? 'pix',
      paidAt: plan.periodStart,
      appliedAt: plan.periodStart,
      periodStart: plan.periodStart,
      expiresAt: plan.expiresAt,
      payerName: 'Empresa Teste Ltda',
      payerDocument: '11444777000161',
      payerEmail,
    })
    .returning('id');
  await knex('invoiceTransactions').insert({ workspaceId: ws.id, invoiceId: invoice.id, method: plan.method ?? 'pix', amount: total, status: 'paid', paidAt: plan.periodStart });
  return { id: sub.id as number, workspaceId: ws.id, payerEmail };
}

/** A trial as signup leaves it (api/workspaces/provisionWorkspace.ts). */
export async function insertTrial(knex: Knex, workspaceId: number, expiresAt: Date, status: 'active' | 'expired' = 'active'): Promise<number> {
  const [row] = await knex('subscriptions')
    .insert({ workspaceId, license: 'trial', status, agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 44_900, autorenewal: false, expiresAt })
    .returning('id');
  return row.id as number;
}

/** Keeps the mails the lifecycle sends. */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** Keeps what is published (and passes it on to `next`, the app's real publisher, when given). */
export class RecordingPublisher implements Publisher {
  readonly events: { topic: string; event: string; data: any }[] = [];
  constructor(private readonly next?: Publisher) {}
  async publish<T>(topic: string, event: string, data: T): Promise<boolean> {
    this.events.push({ topic, event, data });
    return this.next ? this.next.publish(topic, event, data) : true;
  }
  async close(): Promise<void> {}
  named(event: string) {
    return this.events.filter((e) => e.event === event);
  }
}

export async function subscriptionRow(knex: Knex, id: number) {
  return knex('subscriptions').where({ id }).first();
}

export interface BillingApi {
  api: TestApi;
  /** What the app and the lifecycle published (passed on to the app's broker). */
  publisher: RecordingPublisher;
  close(): Promise<void>;
}

/** The app on its own task queue, with a worker running the lifecycle's real activities on the dev server. */
export async function startBillingApi(overrides: Partial<Config> = {}): Promise<BillingApi> {
  const [api, connection, workflowBundle] = await Promise.all([
    startTestApi({ temporalTaskQueue: unique('billing'), ...overrides }),
    testNativeConnection(),
    bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
  ]);
  const publisher = new RecordingPublisher(api.deps.publisher);
  api.deps.publisher = publisher;
  const worker = await Worker.create({
    connection,
    taskQueue: api.config.temporalTaskQueue,
    workflowBundle,
    activities: createActivities({ knex: api.deps.knex, publisher, logger: createLogger('silent'), config: api.config }, { billing: { mailer: new RecordingMailer() } }),
  });
  const running = worker.run();
  return {
    api,
    publisher,
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
      await api.close();
    },
  };
}
