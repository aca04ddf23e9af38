import { BaseModel } from './BaseModel';

export const TRANSACTION_STATUSES = ['pending', 'paid', 'overdue', 'failed', 'canceled', 'refunded'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A payment attempt; providerReference (unique) makes the provider's notifications idempotent. */
export class InvoiceTransaction extends BaseModel {
  static override tableName = 'invoice_transactions';
  static override jsonAttributes = ['paymentData'];
  id!: number;
  workspaceId!: number;
  invoiceId!: number;
  status!: TransactionStatus;
  method!: 'pix' | 'boleto' | 'card';
  /** Centavos. */
  amount!: number;
  cardLastDigits!: string | null;
  providerReference!: string | null;
  /** Pix copy-and-paste code and QR, boleto line and URL. */
  paymentData!: Record<string, unknown>;
  paidAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}
