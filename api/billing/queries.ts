import type { Knex } from 'knex';
import type { License } from '../models/Subscription';
import type { PaymentMethod, PaymentData } from './provider';
import { currentSubscription, type SubscriptionInForce } from './limits';
import type { PlanUnits } from './plans';

/** Reads of the billing tables, always inside one workspace (DESIGN §2) unless the caller is the workflow. */

type Db = Knex | Knex.Transaction;

/** A downgrade (or a switch to monthly) waiting for the period end: the subscribe call's names. */
export interface ScheduledChange extends PlanUnits {
  license: License;
  months: number;
  /** Centavos per period, before any coupon. */
  total: number;
  /** ISO: when it takes effect (the period end it was asked in). */
  at: string;
}

/** A subscriptions row: what the limits read (limits.ts) and what billing and its lifecycle keep besides. */
export interface SubscriptionRow extends Omit<SubscriptionInForce, 'inForce'> {
  workspaceId: number;
  total: number;
  autorenewal: boolean;
  periodStart: Date;
  paidAmount: number;
  billingDay: number | null;
  canceledAt: Date | null;
  scheduledChange: ScheduledChange | null;
  remindersSent: string[];
  createdAt: Date;
}

export const SUBSCRIPTION_COLUMNS = [
  'id',
  'workspaceId',
  'license',
  'status',
  'agents',
  'numbers',
  'instagramUnits',
  'campaignUnits',
  'months',
  'total',
  'autorenewal',
  'periodStart',
  'expiresAt',
  'paidAmount',
  'billingDay',
  'graceEndsAt',
  'canceledAt',
  'scheduledChange',
  'remindersSent',
  'createdAt',
];

/** One subscription by id; `workspaceId` scopes it (undefined only for the subscription's own workflow). */
export async function findSubscription(db: Db, id: number, workspaceId?: number, lock = false): Promise<SubscriptionRow | undefined> {
  const q = db('subscriptions').where({ id });
  if (workspaceId !== undefined) q.where({ workspaceId });
  if (lock) q.forUpdate();
  return (await q.first(SUBSCRIPTION_COLUMNS)) as SubscriptionRow | undefined;
}

/** The workspace's subscription (limits.ts currentSubscription: the newest in force, else the newest). */
export async function workspaceSubscription(db: Db, workspaceId: number, now = new Date(), lock = false): Promise<SubscriptionRow | undefined> {
  const current = await currentSubscription(db, workspaceId, now);
  return current ? findSubscription(db, current.id, workspaceId, lock) : undefined;
}

export interface Payer {
  name: string;
  document: string | null;
  email: string;
  providerCustomerId: string | null;
}

/** Who pays: the payer of the workspace's newest invoice that names one. */
export async function lastPayer(db: Db, workspaceId: number): Promise<Payer | undefined> {
  const row = await db('invoices')
    .where({ workspaceId })
    .whereNotNull('payerDocument')
    .orderBy('id', 'desc')
    .first('payerName', 'payerDocument', 'payerEmail', 'providerCustomerId');
  return row ? { name: row.payerName, document: row.payerDocument, email: row.payerEmail, providerCustomerId: row.providerCustomerId } : undefined;
}

/** The e-mail addresses of the workspace's owners (the payer's own is added by the caller). */
export async function ownerEmails(db: Db, workspaceId: number): Promise<string[]> {
  const rows: { email: string }[] = await db('workspaceMembers as m')
    .join('operators as o', 'o.id', 'm.operatorId')
    .where({ 'm.workspaceId': workspaceId, 'm.accessLevel': 10, 'm.isActive': true })
    .where('o.verificationLevel', '>', 0)
    .select('o.email');
  return rows.map((r) => r.email);
}

export interface InvoiceRow {
  id: number;
  workspaceId: number;
  subscriptionId: number | null;
  orderNumber: string;
  kind: 'new' | 'upgrade' | 'renewal';
  plan: License;
  months: number;
  agents: number;
  numbers: number;
  instagramUnits: number;
  campaignUnits: number;
  total: number;
  credit: number;
  discount: number;
  amount: number;
  couponId: number | null;
  status: string;
  paymentMethod: PaymentMethod | null;
  dueAt: Date | null;
  paidAt: Date | null;
  periodStart: Date | null;
  expiresAt: Date;
  items: InvoiceItem[];
  payerName: string | null;
  payerDocument: string | null;
  payerEmail: string | null;
  providerCustomerId: string | null;
  appliedAt: Date | null;
  createdAt: Date;
}

/** A line of an invoice as the screens show it (the quote's item, `label` for its description). */
export interface InvoiceItem {
  kind: string;
  label: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}

export interface TransactionRow {
  id: number;
  workspaceId: number;
  invoiceId: number;
  status: string;
  method: PaymentMethod;
  amount: number;
  providerReference: string | null;
  paymentData: PaymentData | Record<string, never>;
  paidAt: Date | null;
  createdAt: Date;
}

export const OPEN_INVOICE_STATUSES = ['pending', 'overdue'] as const;
export const OPEN_TRANSACTION_STATUSES = ['pending', 'overdue'] as const;

export async function findInvoice(db: Db, workspaceId: number, id: number, lock = false): Promise<InvoiceRow | undefined> {
  const q = db('invoices').where({ id, workspaceId });
  if (lock) q.forUpdate();
  return (await q.first()) as InvoiceRow | undefined;
}

export async function transactionsOf(db: Db, workspaceId: number, invoiceIds: number[]): Promise<TransactionRow[]> {
  if (!invoiceIds.length) return [];
  return (await db('invoiceTransactions')
    .where({ workspaceId })
    .whereIn('invoiceId', invoiceIds)
    .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select('id', 'workspaceId', 'invoiceId', 'status', 'method', 'amount', 'providerReference', 'paymentData', 'paidAt', 'createdAt')) as TransactionRow[];
}

/** The transaction a screen opens for an invoice: the paid one, else the newest. */
export function mainTransaction(transactions: TransactionRow[]): TransactionRow | undefined {
  return transactions.find((t) => t.status === 'paid') ?? transactions[0];
}

/** The invoice waiting for payment (the newest open one), with the transaction to pay. */
export async function openInvoice(db: Db, workspaceId: number): Promise<{ invoice: InvoiceRow; transaction: TransactionRow | undefined } | undefined> {
  const invoice = (await db('invoices').where({ workspaceId }).whereIn('status', [...OPEN_INVOICE_STATUSES]).orderBy('id', 'desc').first()) as InvoiceRow | undefined;
  if (!invoice) return undefined;
  return { invoice, transaction: mainTransaction(await transactionsOf(db, workspaceId, [invoice.id])) };
}
