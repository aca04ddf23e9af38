import type { Knex } from 'knex';
import { errors } from '../http/errors';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { AccessLevel } from '../policy/levels';

type Db = Knex | Knex.Transaction;

/** Calls listed in a contact's history; sessionsCount still counts them all. */
export const CALL_HISTORY_LIMIT = 100;

/**
 * `customers` rows (alias c) of the viewer's workspace that have at least one conversation the viewer may
 * see (docs/api/inbox.md: a contact is reachable only through a visible conversation), or, at level 6+, no
 * conversation at all.
 */
export function visibleCustomers(db: Db, viewer: ConversationViewer): Knex.QueryBuilder {
  const visible = visibilityCondition(viewer, 'vcp');
  const reachable = `EXISTS (SELECT 1 FROM customer_platforms vcp WHERE vcp.customer_id = c.id AND (${visible.sql}))`;
  // A contact with no conversation yet (imported on the Contacts page) is no one's: level 6+, who import and
  // export contacts, reach it (docs/contacts.md).
  const unattached = viewer.accessLevel >= AccessLevel.MASTER ? ' OR NOT EXISTS (SELECT 1 FROM customer_platforms acp WHERE acp.customer_id = c.id)' : '';
  return db('customers as c')
    .where('c.workspace_id', viewer.workspaceId)
    .whereRaw(`(${reachable}${unattached})`, visible.bindings);
}

/** The customer's conversations the viewer may see (alias cp). */
export function visiblePlatformsOf(db: Db, viewer: ConversationViewer, customerId: number): Knex.QueryBuilder {
  const visible = visibilityCondition(viewer, 'cp');
  return db('customer_platforms as cp')
    .where('cp.workspace_id', viewer.workspaceId)
    .where('cp.customer_id', customerId)
    .whereRaw(`(${visible.sql})`, visible.bindings);
}

export interface CustomerRow {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  details: string | null;
  createdAt: Date;
  lastViewed: Date | null;
}

const CUSTOMER_COLUMNS = ['c.id', 'c.name', 'c.phone', 'c.email', 'c.avatar', 'c.details', 'c.created_at', 'c.last_viewed'];

/** A visible customer, optionally locked for the rest of the transaction; otherwise a 404. */
export async function findVisibleCustomer(db: Db, viewer: ConversationViewer, id: number, lock = false): Promise<CustomerRow> {
  const q = visibleCustomers(db, viewer).where('c.id', id).first(CUSTOMER_COLUMNS);
  if (lock) q.forUpdate();
  const row = (await q) as CustomerRow | undefined;
  if (!row) throw errors.notFound();
  return row;
}

export interface PropertyRow {
  id: number;
  label: string;
  code: string;
  value: string;
}

export interface ChannelEntryRow {
  customerPlatformId: number;
  platformId: number;
  channelName: string;
  channelDescription: string;
  callId: number | null;
  protocol: number | null;
  callCreatedAt: Date | null;
  callIsFinished: boolean | null;
}

export interface CallRow {
  id: number;
  customerPlatformId: number;
  operatorId: number | null;
  protocol: number;
  createdAt: Date;
  finishedAt: Date | null;
  isFinished: boolean;
  /** CSAT (docs/csat.md): 'sent', 'skipped' or 'answered', and the rating once answered. */
  csatState: string | null;
  csatRating: number | null;
}

export interface CustomerDetails {
  customer: CustomerRow;
  properties: PropertyRow[];
  channels: ChannelEntryRow[];
  calls: CallRow[];
  sessionsCount: number;
}

/** Everything the contact panel shows, in four queries whatever the number of channels and calls. */
export async function loadCustomerDetails(db: Db, viewer: ConversationViewer, id: number): Promise<CustomerDetails> {
  const customer = await findVisibleCustomer(db, viewer, id);
  const callsOfVisible = () => db('calls as k').whereIn('k.customer_platform_id', visiblePlatformsOf(db, viewer, id).select('cp.id'));
  const [properties, channels, calls, count] = await Promise.all([
    db('customer_properties').where({ workspaceId: viewer.workspaceId, customerId: id }).orderBy('id').select('id', 'label', 'code', 'value') as Promise<PropertyRow[]>,
    visiblePlatformsOf(db, viewer, id)
      .join('channels as ch', 'ch.id', 'cp.channel_id')
      .leftJoin('calls as k', 'k.id', 'cp.current_call_id')
      .orderBy('cp.id')
      .select(
        'cp.id as customer_platform_id',
        'ch.platform_id',
        'ch.name as channel_name',
        'ch.description as channel_description',
        'k.id as call_id',
        'k.protocol',
        'k.created_at as call_created_at',
        'k.is_finished as call_is_finished',
      ) as Promise<ChannelEntryRow[]>,
    callsOfVisible()
      .orderBy('k.id', 'desc')
      .limit(CALL_HISTORY_LIMIT)
      .select('k.id', 'k.customer_platform_id', 'k.operator_id', 'k.protocol', 'k.created_at', 'k.finished_at', 'k.is_finished', 'k.csat_state', 'k.csat_rating') as Promise<CallRow[]>,
    callsOfVisible().count({ n: '*' }).first() as Promise<{ n: number } | undefined>,
  ]);
  return { customer, properties, channels, calls, sessionsCount: Number(count?.n ?? 0) };
}
