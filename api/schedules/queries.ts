import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { ListOptions, ListQuery } from '../http/listQuery';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import type { StoredFileRef } from '../models/StoredFile';
import type { WhatsappTemplate } from '../channels/whatsapp/templateText';
import type { Repeat } from './recurrence';
import { SCHEDULE_STATES, SCHEDULES_PAGE_SIZE, type ScheduleState } from './schema';

type Db = Knex | Knex.Transaction;

/** A template as chosen for a schedule: the line's definition at that moment and the variables' values. */
export interface StoredScheduleTemplate {
  name: string;
  language: string;
  header: Record<string, string>;
  body: Record<string, string>;
  definition: WhatsappTemplate;
}

/** A scheduled_messages row as the commands and the activity read it. */
export interface ScheduleRecord {
  id: number;
  workspaceId: number;
  customerPlatformId: number;
  channelId: number;
  operatorId: number | null;
  state: ScheduleState;
  timeZone: string;
  startsLocal: string;
  dueAt: Date;
  repeat: Repeat;
  repeatUntil: string | null;
  occurrence: number;
  text: string;
  file: StoredFileRef | null;
  template: StoredScheduleTemplate | null;
  sentCount: number;
  lastSentAt: Date | null;
  lastMessageId: number | null;
  error: string | null;
  canceledBy: number | null;
  canceledAt: Date | null;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A row as the list and the detail show it: with its conversation, channel, author and last delivery. */
export interface ScheduleListRow extends ScheduleRecord {
  effectiveState: ScheduleState;
  contactName: string | null;
  channelName: string;
  channelType: string;
  operatorName: string | null;
  deliveryState: string | null;
  deliveryError: string | null;
}

const RECORD_COLUMNS = [
  'id',
  'workspace_id',
  'customer_platform_id',
  'channel_id',
  'operator_id',
  'state',
  'time_zone',
  'starts_local',
  'due_at',
  'repeat',
  'repeat_until',
  'occurrence',
  'text',
  'file',
  'template',
  'sent_count',
  'last_sent_at',
  'last_message_id',
  'error',
  'canceled_by',
  'canceled_at',
  'revision',
  'created_at',
  'updated_at',
] as const;

/** `repeat_until` as 'YYYY-MM-DD' whatever the driver made of the date. */
function dateText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`;
  return String(v).slice(0, 10);
}

function record<T extends { repeatUntil: unknown }>(row: T): T & { repeatUntil: string | null } {
  return { ...row, repeatUntil: dateText(row.repeatUntil) };
}

/** The one way to the table: always inside the workspace (DESIGN §2). */
export function schedulesOf(db: Db, workspaceId: number): Knex.QueryBuilder {
  return db('scheduled_messages').where('scheduled_messages.workspace_id', workspaceId);
}

/** The row, locked for the rest of the transaction; undefined when it is not in the workspace. */
export async function lockSchedule(trx: Knex.Transaction, workspaceId: number, id: number): Promise<ScheduleRecord | undefined> {
  const row = await schedulesOf(trx, workspaceId).where('scheduled_messages.id', id).forUpdate().first(RECORD_COLUMNS.map((c) => `scheduled_messages.${c}`));
  return row ? (record(row) as ScheduleRecord) : undefined;
}

/** A shown state: a sent message whose delivery then failed shows as failed, with the delivery's reason. */
const EFFECTIVE_STATE = "CASE WHEN s.state = 'sent' AND m.delivery_state = 'failed' THEN 'failed' ELSE s.state END";

/** The list's rows with what they show, limited to the schedules of conversations the viewer may see (SPEC §6). */
function visibleRows(db: Db, viewer: ConversationViewer): Knex.QueryBuilder {
  const visible = visibilityCondition(viewer, 'cp');
  return db('scheduled_messages as s')
    .join('customer_platforms as cp', function () {
      this.on('cp.id', '=', 's.customer_platform_id').andOn('cp.workspace_id', '=', 's.workspace_id');
    })
    .where('s.workspace_id', viewer.workspaceId)
    .whereRaw(`(${visible.sql})`, visible.bindings);
}

function withDetails(qb: Knex.QueryBuilder): Knex.QueryBuilder {
  return qb
    .join('channels as ch', function () {
      this.on('ch.id', '=', 's.channel_id').andOn('ch.workspace_id', '=', 's.workspace_id');
    })
    .join('customers as cu', function () {
      this.on('cu.id', '=', 'cp.customer_id').andOn('cu.workspace_id', '=', 'cp.workspace_id');
    })
    .leftJoin('operators as op', 'op.id', 's.operator_id')
    .leftJoin('messages as m', function () {
      this.on('m.id', '=', 's.last_message_id').andOn('m.workspace_id', '=', 's.workspace_id');
    });
}

const DETAIL_COLUMNS = [
  ...RECORD_COLUMNS.map((c) => `s.${c}`),
  'cu.name as contact_name',
  'ch.name as channel_name',
  'ch.type as channel_type',
  'op.name as operator_name',
  'm.delivery_state',
  'm.delivery_error',
];

function detailRow(row: Record<string, unknown>): ScheduleListRow {
  return record(row as unknown as ScheduleListRow & { repeatUntil: unknown });
}

/** One schedule the viewer may see (its conversation visible to them), or a 404. */
export async function findVisibleSchedule(db: Db, viewer: ConversationViewer, id: number): Promise<ScheduleListRow> {
  const row = await withDetails(visibleRows(db, viewer).where('s.id', id)).first([...DETAIL_COLUMNS, db.raw(`${EFFECTIVE_STATE} as effective_state`)]);
  if (!row) throw errors.notFound('Agendamento não encontrado.');
  return detailRow(row);
}

/** GET /schedules: sorted by due time (soonest first) unless asked otherwise; filters of the list page. */
export const SCHEDULE_LIST_OPTIONS: ListOptions = {
  sortable: ['dueAt', 'createdAt', 'id'],
  defaultSort: { field: 'dueAt', order: 'asc' },
  filterable: ['state', 'operatorId', 'channelId', 'conversationId'],
  defaultLimit: SCHEDULES_PAGE_SIZE,
  maxLimit: 200,
};

const SORT_COLUMNS: Record<string, string> = { dueAt: 's.due_at', createdAt: 's.created_at', id: 's.id' };

const asList = (v: unknown) => (Array.isArray(v) ? v : [v]).map(String);

function idList(key: string, v: unknown): number[] {
  const list = asList(v);
  if (!list.every((s) => /^[1-9][0-9]{0,14}$/.test(s))) throw errors.field(key, 'Identificador inválido.');
  return list.map(Number);
}

/** One page of the schedules the viewer may see (matchCount: the filters; totalCount: every visible schedule). */
export async function listSchedules(db: Db, viewer: ConversationViewer, q: ListQuery): Promise<{ rows: ScheduleListRow[]; matchCount: number; totalCount: number }> {
  const base = () => visibleRows(db, viewer);
  const filtered = withDetails(base());
  const f = q.filter;
  if (q.ids) filtered.whereIn('s.id', q.ids);
  if (f.state !== undefined) {
    const states = asList(f.state);
    if (!states.every((s) => (SCHEDULE_STATES as readonly string[]).includes(s))) throw errors.field('state', 'Situação inválida.');
    filtered.whereRaw(`(${EFFECTIVE_STATE}) = ANY(?)`, [states]);
  }
  if (f.operatorId !== undefined) filtered.whereIn('s.operator_id', idList('operatorId', f.operatorId));
  if (f.channelId !== undefined) filtered.whereIn('s.channel_id', idList('channelId', f.channelId));
  if (f.conversationId !== undefined) filtered.whereIn('s.customer_platform_id', idList('conversationId', f.conversationId));
  const column = SORT_COLUMNS[q.sort.field] ?? 's.due_at';
  const [rows, matched, total] = await Promise.all([
    filtered
      .clone()
      .orderBy(column, q.sort.order)
      .orderBy('s.id', q.sort.order)
      .limit(q.limit)
      .offset(q.offset)
      .select([...DETAIL_COLUMNS, db.raw(`${EFFECTIVE_STATE} as effective_state`)]),
    filtered.clone().count({ n: '*' }).first(),
    base().count({ n: '*' }).first(),
  ]);
  return { rows: (rows as Record<string, unknown>[]).map(detailRow), matchCount: Number(matched?.n ?? 0), totalCount: Number(total?.n ?? 0) };
}
