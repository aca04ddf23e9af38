import type { Knex } from 'knex';
import type { ListQuery, ListResult } from '../http/listQuery';
import { contactMatch } from '../models/contactMatch';
import type { ConversationViewer } from '../policy/conversations';
import { presentCustomerSummary } from './presenters';
import { visibleCustomers } from './queries';

const SORT_COLUMNS: Record<string, string> = { createdAt: 'c.created_at', name: 'c.name', id: 'c.id' };

/** GET /customer/all-customers: visible contacts by name, phone or e-mail (merge and new-message pickers). */
export async function searchCustomers(db: Knex, viewer: ConversationViewer, q: ListQuery): Promise<ListResult<ReturnType<typeof presentCustomerSummary>>> {
  const matching = visibleCustomers(db, viewer);
  if (q.ids) matching.whereIn('c.id', q.ids);
  if (q.query) {
    const m = contactMatch('c', q.query);
    matching.whereRaw(m.sql, m.bindings);
  }
  const [rows, matched, total] = await Promise.all([
    matching
      .clone()
      .orderBy(SORT_COLUMNS[q.sort.field], q.sort.order)
      .orderBy('c.id', q.sort.order)
      .limit(q.limit)
      .offset(q.offset)
      .select('c.id', 'c.name', 'c.phone', 'c.email', 'c.avatar'),
    matching.clone().count({ n: '*' }).first(),
    visibleCustomers(db, viewer).count({ n: '*' }).first(),
  ]);
  return { rows: rows.map(presentCustomerSummary), matchCount: Number(matched?.n ?? 0), totalCount: Number(total?.n ?? 0) };
}

export const CUSTOMER_LIST_OPTIONS = {
  sortable: Object.keys(SORT_COLUMNS),
  defaultSort: { field: 'createdAt', order: 'desc' },
  defaultLimit: 30,
  maxLimit: 100,
} as const;
