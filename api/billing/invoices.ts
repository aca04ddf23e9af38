import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { ListQuery, ListResult } from '../http/listQuery';
import { presentInvoice, presentTransaction } from './presenters';
import { findInvoice, transactionsOf, type InvoiceRow } from './queries';

/** The invoices of one workspace (docs/billing-api.md): the list (newest first) and one invoice with its payments. */

export const INVOICE_NOT_FOUND = 'Fatura não encontrada.';

export async function listInvoices(knex: Knex, workspaceId: number, q: ListQuery): Promise<ListResult<ReturnType<typeof presentInvoice>>> {
  const base = () => knex('invoices').where({ workspaceId });
  const [{ n }] = (await base().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base()
    .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(q.limit)
    .offset(q.offset)) as InvoiceRow[];
  const transactions = await transactionsOf(knex, workspaceId, rows.map((r) => r.id));
  const data = rows.map((r) => presentInvoice(r, transactions.filter((t) => t.invoiceId === r.id)));
  return { rows: data, matchCount: Number(n), totalCount: Number(n) };
}

export async function invoiceDetail(knex: Knex, workspaceId: number, invoiceId: number, testMode: boolean) {
  const invoice = await findInvoice(knex, workspaceId, invoiceId);
  if (!invoice) throw errors.notFound(INVOICE_NOT_FOUND);
  const [transactions, coupon, workspace] = await Promise.all([
    transactionsOf(knex, workspaceId, [invoice.id]),
    invoice.couponId ? (knex('coupons').where({ id: invoice.couponId }).first('code', 'percent') as Promise<{ code: string; percent: number } | undefined>) : undefined,
    knex('workspaces').where({ id: workspaceId }).first('name') as Promise<{ name: string }>,
  ]);
  return {
    invoice: {
      ...presentInvoice(invoice, transactions),
      items: invoice.items,
      coupon: coupon ? { code: coupon.code, percent: Number(coupon.percent) } : null,
      periodStart: invoice.periodStart ? new Date(invoice.periodStart).toISOString() : null,
    },
    transactions: transactions.map(presentTransaction),
    payer: { name: invoice.payerName, document: invoice.payerDocument, email: invoice.payerEmail },
    workspace: { name: workspace.name },
    testMode,
  };
}
