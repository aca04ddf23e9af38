import { api, request } from '../../providers/httpClient';
import type { BoletoPayment, PixPayment } from '../../../../api/billing/provider';

/** The shapes of the billing calls (docs/billing-api.md); money in integer centavos, dates ISO. */

export type License = 'basic' | 'trial' | 'business' | 'enterprise' | 'pro';
export type PurchasableLicense = 'basic' | 'business' | 'enterprise';
export type Method = 'pix' | 'boleto';
export const UNIT_KEYS = ['agents', 'whatsapp', 'campaign', 'instagram'] as const;
export type UnitKey = (typeof UNIT_KEYS)[number];
export type Units = Record<UnitKey, number>;

export interface PlanInfo {
  license: PurchasableLicense;
  name: string;
  price: number;
  included: Units;
}

export interface PlansInfo {
  plans: PlanInfo[];
  extras: Units;
  annualMonths: number;
  testMode: boolean;
  contact: { phones: string[]; email: string };
}

/** A downgrade waiting for the period end (api/billing/queries.ts ScheduledChange). */
export interface ScheduledChange extends Units {
  license: License;
  months: number;
  /** Centavos per period, before any coupon. */
  total: number;
  /** ISO: when it takes effect. */
  at: string;
}

export interface SubscriptionInfo extends Units {
  id: number;
  license: License;
  status: 'active' | 'expired' | 'canceled';
  trial: boolean;
  months: number;
  total: number;
  autorenewal: boolean;
  periodStart: string | null;
  expiresAt: string;
  canceledAt: string | null;
  graceEndsAt: string | null;
  scheduledChange: ScheduledChange | null;
}

export interface SubscriptionState {
  subscription: SubscriptionInfo | null;
  usage: Units;
  openInvoice: { id: number; transactionId: number | null; amount: number; dueAt: string | null } | null;
  testMode: boolean;
}

export interface QuoteRequest extends Units {
  license: PurchasableLicense;
  months: number;
  coupon?: string;
}

export interface QuoteLine {
  kind: string;
  label: string;
  quantity: number;
  unitPrice: number;
  amount: number;
}

export interface Quote {
  items: QuoteLine[];
  subtotal: number;
  discount: number;
  credit: number;
  total: number;
  effective: 'now' | 'period_end';
  errors?: Record<string, string>;
}

export interface SubscribeRequest extends QuoteRequest {
  method: Method;
  document?: string;
}

export interface SubscribeAnswer {
  invoiceId: number | null;
  transactionId?: number | null;
  effective?: 'now' | 'period_end';
  scheduledChange?: ScheduledChange | null;
}

export interface CouponInfo {
  code: string;
  percent: number;
  charges: number;
  billing: 'monthly' | 'annual' | 'any';
}

export type InvoiceStatus = 'pending' | 'paid' | 'overdue' | 'canceled' | 'expired' | 'refunded';

export interface InvoiceRow {
  id: number;
  order: string;
  status: InvoiceStatus;
  plan: License;
  months: number;
  amount: number;
  total: number;
  credit: number;
  discount: number;
  paidAt: string | null;
  dueAt: string | null;
  expiresAt: string | null;
  createdAt: string;
  transactionId: number | null;
}

export type PaymentData = PixPayment | BoletoPayment;

export interface InvoiceTransaction {
  id: number;
  method: Method | 'card';
  status: string;
  amount: number;
  paidAt: string | null;
  payment: PaymentData | null;
}

export interface InvoiceDetail {
  invoice: InvoiceRow & { items: QuoteLine[]; coupon: { code: string; percent: number } | null; periodStart: string | null };
  transactions: InvoiceTransaction[];
  payer: { name: string; document: string; email: string } | null;
  workspace: { name: string };
  testMode: boolean;
}

export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  subscription: ['billing', 'subscription'] as const,
  invoices: ['billing', 'invoices'] as const,
  invoice: (id: number) => ['billing', 'invoice', id] as const,
};

export const billingApi = {
  plans: () => api<PlansInfo>('/payment/plans'),
  subscription: () => api<SubscriptionState>('/payment/subscription'),
  quote: (body: QuoteRequest, signal?: AbortSignal) => api<Quote>('/payment/quote', { method: 'POST', body, signal }),
  subscribe: (body: SubscribeRequest) => api<SubscribeAnswer>('/payment/subscribe', { method: 'POST', body }),
  change: (subscriptionId: number, body: SubscribeRequest) => api<SubscribeAnswer>(`/payment/${subscriptionId}/change`, { method: 'POST', body }),
  cancel: (subscriptionId: number) => api<SubscriptionInfo>(`/payment/${subscriptionId}`, { method: 'DELETE' }),
  verifyCoupon: (code: string, months: number) => api<CouponInfo>(`/payment/cupom/verify?${new URLSearchParams({ code, months: String(months) }).toString()}`),
  /** SPEC §9: the invoices list asks for 999 rows at once. */
  invoices: async (): Promise<InvoiceRow[]> => {
    const res = await request('/api/payment/invoices?_start=0&_end=999');
    const json = res.json as InvoiceRow[] | { data: InvoiceRow[] };
    return Array.isArray(json) ? json : json.data;
  },
  invoice: (id: number) => api<InvoiceDetail>(`/payment/invoices/${id}`),
  simulate: (invoiceId: number, transactionId: number) => api<unknown>(`/payment/invoices/${invoiceId}/transactions/${transactionId}/simulate`, { method: 'POST' }),
};

/** The transaction a page shows: the one named, else the paid one, else the newest. */
export function pickTransaction(detail: InvoiceDetail, transactionId?: number): InvoiceTransaction | undefined {
  const list = detail.transactions;
  return list.find((t) => t.id === transactionId) ?? list.find((t) => t.status === 'paid') ?? [...list].sort((a, b) => b.id - a.id)[0];
}
