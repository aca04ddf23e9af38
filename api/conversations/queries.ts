import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { LastMessagePreview } from '../models/CustomerPlatform';
import type { ChannelRecord, ChannelType } from '../models/Channel';
import { canSeeConversation, type ConversationViewer } from '../policy/conversations';
import type { SegmentFilters } from '../segments/filters';

type Db = Knex | Knex.Transaction;

/** The bare row, as locked by commands. */
export interface PlatformRow {
  id: number;
  workspaceId: number;
  channelId: number;
  customerId: number;
  externalId: string;
  operatorId: number | null;
  groupId: number | null;
  botId: number | null;
  currentCallId: number | null;
  isFinished: boolean;
  hasNewMessages: boolean;
  lastMessageAt: Date;
  /** CSAT (docs/csat.md): the resolved call whose question awaits an answer, and until when (read by the inbound pipeline). */
  csatCallId?: number | null;
  csatUntil?: Date | null;
}

/** A conversation with what its presenter needs, read in one query (customer, channel, current call). */
export interface ConversationRow extends PlatformRow {
  lastMessage: LastMessagePreview | null;
  createdAt: Date;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  platformId: number;
  channelType: ChannelType;
  channelName: string;
  channelDescription: string;
  channelIdentifier: string;
  /** WhatsApp lines: 'qr' or 'cloud' (channels.config.provider); null elsewhere. */
  channelProvider: string | null;
  protocol: number | null;
  /** The kanban stage (docs/kanban.md). */
  stageId: number | null;
  /** Only when the query was built for one viewer (starredBy). */
  starred?: boolean;
  /** last_message_at with microseconds, for keyset cursors (a JS Date would drop them). */
  cursorAt: string;
}

export const CURSOR_AT_SQL = `to_char(cp.last_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Where conversationQuery reads its rows from, when not from the tables: the names of a statement's
 * data-modifying CTEs (`RETURNING *`), so a statement that writes a conversation also reads it back as the
 * inbox shows it (api/inbound/ingestStatement.ts).
 */
export interface ConversationSources {
  conversations: string;
  customers?: string;
  calls?: string;
}

/** Conversation rows of a workspace; `starredBy` adds the caller's favourite flag. Alias: cp. */
export function conversationQuery(db: Db, workspaceId: number, starredBy?: number, source: string | ConversationSources = 'customer_platforms'): Knex.QueryBuilder {
  const from: ConversationSources = typeof source === 'string' ? { conversations: source } : source;
  const q = db(`${from.conversations} as cp`)
    .join(`${from.customers ?? 'customers'} as c`, 'c.id', 'cp.customer_id')
    .join('channels as ch', 'ch.id', 'cp.channel_id')
    .leftJoin(`${from.calls ?? 'calls'} as k`, 'k.id', 'cp.current_call_id')
    .where('cp.workspace_id', workspaceId)
    .select(
      'cp.id',
      'cp.workspace_id',
      'cp.channel_id',
      'cp.customer_id',
      'cp.external_id',
      'cp.operator_id',
      'cp.group_id',
      'cp.bot_id',
      'cp.current_call_id',
      'cp.stage_id',
      'cp.is_finished',
      'cp.has_new_messages',
      'cp.last_message',
      'cp.last_message_at',
      'cp.created_at',
      'c.name',
      'c.phone',
      'c.email',
      'c.avatar',
      'ch.platform_id',
      'ch.type as channel_type',
      'ch.name as channel_name',
      'ch.description as channel_description',
      'ch.identifier as channel_identifier',
      db.raw("ch.config->>'provider' AS channel_provider"),
      'k.protocol',
      db.raw(`${CURSOR_AT_SQL} AS cursor_at`),
    );
  if (starredBy !== undefined) {
    q.select(
      db.raw(
        'EXISTS (SELECT 1 FROM customer_platform_favorites f WHERE f.customer_platform_id = cp.id AND f.operator_id = ?) AS starred',
        [starredBy],
      ),
    );
  }
  return q;
}

export async function findConversation(db: Db, workspaceId: number, id: number, starredBy?: number): Promise<ConversationRow | undefined> {
  return conversationQuery(db, workspaceId, starredBy).where('cp.id', id).first();
}

/** Another workspace's conversation and one the viewer may not see are the same 404. */
export async function findVisibleConversation(db: Db, viewer: ConversationViewer, id: number): Promise<ConversationRow> {
  const row = await findConversation(db, viewer.workspaceId, id, viewer.operatorId);
  if (!row || !canSeeConversation(viewer, row)) throw errors.notFound('Conversa não encontrada.');
  return row;
}

/** Locks the conversation row for the rest of the transaction: the order every writer takes (row, then calls). */
export async function lockConversation(trx: Knex.Transaction, workspaceId: number, id: number): Promise<PlatformRow | undefined> {
  return trx('customer_platforms')
    .where({ workspaceId, id })
    .forUpdate()
    .first('id', 'workspace_id', 'channel_id', 'customer_id', 'external_id', 'operator_id', 'group_id', 'bot_id', 'current_call_id', 'is_finished', 'has_new_messages', 'last_message_at');
}

export async function lockVisibleConversation(trx: Knex.Transaction, viewer: ConversationViewer, id: number): Promise<PlatformRow> {
  const row = await lockConversation(trx, viewer.workspaceId, id);
  if (!row || !canSeeConversation(viewer, row)) throw errors.notFound('Conversa não encontrada.');
  return row;
}

/**
 * A saved segment's filters (api/segments/filters.ts) on a customer_platforms query aliased cp. `open` is
 * not applied here: whether a list reads open or finished rows is the caller's choice (it picks the index).
 */
export function applySegmentFilters(qb: Knex.QueryBuilder, filters: SegmentFilters, operatorId: number): Knex.QueryBuilder {
  if (filters.my) qb.where('cp.operator_id', operatorId);
  if (filters.assigned === true) qb.whereNotNull('cp.operator_id');
  if (filters.assigned === false) qb.whereNull('cp.operator_id');
  if (filters.starred) {
    qb.whereExists((s) => {
      s.select(1).from('customer_platform_favorites as f').whereRaw('f.customer_platform_id = cp.id').where('f.operator_id', operatorId);
    });
  }
  if (filters.channels.length) qb.whereIn('cp.channel_id', filters.channels);
  if (filters.groups.length) qb.whereIn('cp.group_id', filters.groups);
  if (filters.agents.length) qb.whereIn('cp.operator_id', filters.agents);
  if (filters.tags.length) {
    qb.whereExists((s) => {
      s.select(1).from('call_labels as cl').whereRaw('cl.call_id = cp.current_call_id').whereIn('cl.label_id', filters.tags);
    });
  }
  const props = filters.customerProps;
  if (props?.property || props?.value) {
    qb.whereExists((s) => {
      s.select(1).from('customer_properties as p').whereRaw('p.workspace_id = cp.workspace_id AND p.customer_id = cp.customer_id');
      // The editor offers the property's code; a typed label is accepted as well.
      if (props.property) s.whereRaw('(p.code = ? OR lower(p.label) = lower(?))', [props.property, props.property]);
      if (props.value) s.whereRaw('lower(p.value) = lower(?)', [props.value]);
    });
  }
  return qb;
}

/** A channel as adapters take it (api/channels/adapter.ts); its credentials stay on the server. */
export async function loadChannel(db: Db, workspaceId: number, channelId: number): Promise<ChannelRecord> {
  const row = await db('channels')
    .where({ workspaceId, id: channelId })
    .first('id', 'workspace_id', 'type', 'platform_id', 'identifier', 'description', 'name', 'config');
  if (!row) throw errors.notFound();
  return { ...row, type: row.type as ChannelType, config: row.config ?? {} };
}

/** A PostgreSQL unique violation, as thrown by knex (or wrapped by Objection). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; nativeError?: { code?: string } };
  return (e.nativeError?.code ?? e.code) === '23505';
}
