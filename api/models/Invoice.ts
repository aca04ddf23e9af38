import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { hasMany } from './relations';
import { newestFirst } from './modifiers';
import { InvoiceTransaction } from './InvoiceTransaction';
import type { License } from './Subscription';

export const INVOICE_STATUSES = ['pending', 'paid', 'overdue', 'canceled', 'expired', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type PaymentMethod = 'pix' | 'boleto';

/** SPEC's invoice; orderNumber is presented as `order`. Money in centavos: amount = total - credit - discount. */
export class Invoice extends BaseModel {
  static override tableName = 'invoices';
  id!: number;
  workspaceId!: number;
  subscriptionId!: number | null;
  orderNumber!: string;
  plan!: License;
  months!: number;
  agents!: number;
  numbers!: number;
  instagramUnits!: number;
  campaignUnits!: number;
  total!: number;
  credit!: number;
  discount!: number;
  amount!: number;
  couponId!: number | null;
  status!: InvoiceStatus;
  paymentMethod!: PaymentMethod | null;
  dueAt!: Date | null;
  paidAt!: Date | null;
  /** End of the period this invoice pays for. */
  expiresAt!: Date;
  createdAt!: Date;
  updatedAt!: Date;
  transactions?: InvoiceTransaction[];

  static override relationMappings = (): RelationMappings => ({
    transactions: hasMany(InvoiceTransaction, 'invoices.id', 'invoice_transactions.invoice_id'),
  });

  static override modifiers: Modifiers = {
    newestFirst: newestFirst('invoices'),
  };
}
