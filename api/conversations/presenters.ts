import type { Knex } from 'knex';
import type { Config } from '../config';
import { signedDownloadUrl } from '../assets/signedUrl';
import { errors } from '../http/errors';
import { findConversation, type ConversationRow } from './queries';
import { isFileItem, type ContentItem } from './content';
import { workflowIds } from '../../workflows/ids';
import type { MessageSender } from '../models/Message';
import type { ConversationView, MessageView, TagView } from './views';

export type { ConversationView, MessageView, TagView } from './views';

type Db = Knex | Knex.Transaction;

/** A message row as read by messageQuery (operator and replied-to message joined). */
export interface MessageRow {
  id: number;
  customerPlatformId: number;
  callId: number;
  externalId: string | null;
  content: ContentItem[];
  text: string;
  type: number;
  status: number;
  operatorId: number | null;
  sender: MessageSender;
  isDeleted: boolean;
  isMedia: boolean;
  replyToId: number | null;
  extraData: Record<string, unknown>;
  createdAt: Date;
  operatorName: string | null;
  operatorAvatar: string | null;
  replyContent: ContentItem[] | null;
  replyText: string | null;
  replyExternalId: string | null;
  replyDeleted: boolean | null;
  deliveryState: 'pending' | 'sent' | 'failed' | null;
  deliveryError: string | null;
}

/** How a viewer fetches a stored file (a signed URL); unset, file entries go out without `url`. */
export type FileUrl = (key: string) => string;

/** Signed download URLs valid for an hour (api/assets/signedUrl.ts). */
export function signedFileUrl(config: Pick<Config, 'jwtSecret' | 'publicUrl'>): FileUrl {
  return (key) => signedDownloadUrl(config, key);
}

/** Tags of the given calls, one query. */
export async function tagsOfCalls(db: Db, callIds: number[]): Promise<Map<number, TagView[]>> {
  const out = new Map<number, TagView[]>();
  if (!callIds.length) return out;
  const rows: (TagView & { callId: number })[] = await db('call_labels as cl')
    .join('labels as l', 'l.id', 'cl.label_id')
    .whereIn('cl.call_id', callIds)
    .orderBy([{ column: 'l.sort' }, { column: 'l.id' }])
    .select('cl.call_id', 'l.id', 'l.name', 'l.color', 'l.text_color');
  for (const { callId, ...tag } of rows) {
    const list = out.get(callId) ?? [];
    list.push(tag);
    out.set(callId, list);
  }
  return out;
}

/**
 * The tags of one call as a JSON array of TagView, in tagsOfCalls' order: for a statement that reads a
 * conversation back in the same statement that wrote it (api/inbound/ingestStatement.ts).
 */
export function tagsJsonSql(callId: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color, 'textColor', l.text_color) ORDER BY l.sort, l.id), '[]'::json)
    FROM call_labels cl JOIN labels l ON l.id = cl.label_id WHERE cl.call_id = ${callId})`;
}

/** Where an admin links to a conversation's bot session: the Temporal Web UI's workflow page. */
export interface TemporalUiLink {
  baseUrl: string;
  namespace: string;
}

export function botSessionUrl(link: TemporalUiLink, conversationId: number): string {
  return `${link.baseUrl}/namespaces/${encodeURIComponent(link.namespace)}/workflows/${encodeURIComponent(workflowIds.botSession(conversationId))}`;
}

export function presentConversation(row: ConversationRow, tags: TagView[], bot: { name: string | null; temporalUrl: string | null } = { name: null, temporalUrl: null }): ConversationView {
  return {
    id: row.id,
    callId: row.currentCallId,
    protocol: row.protocol,
    customerId: row.customerId,
    name: row.name ?? row.phone ?? row.email ?? row.externalId,
    phone: row.phone,
    email: row.email,
    avatar: row.avatar,
    platformId: row.platformId,
    workspacePlatformId: row.channelId,
    channelName: row.channelName || row.channelDescription,
    channelProvider: row.channelProvider ?? null,
    operatorId: row.operatorId,
    groupId: row.groupId,
    botId: row.botId,
    botName: row.botId === null ? null : bot.name,
    temporalUrl: row.botId === null ? null : bot.temporalUrl,
    tags,
    stageId: row.stageId ?? null,
    isFinished: row.isFinished,
    starred: row.starred ?? false,
    hasNewMessages: row.hasNewMessages,
    lastMessage: row.lastMessage,
    lastMessageAt: row.lastMessageAt,
    identifier: row.externalId,
    createdAt: row.createdAt,
  };
}

/** A page of conversations: one extra query for every row's tags, whatever the page size. */
export async function presentConversations(db: Db, rows: ConversationRow[], options: { temporalUi?: TemporalUiLink } = {}): Promise<ConversationView[]> {
  const tags = await tagsOfCalls(db, rows.map((r) => r.currentCallId).filter((id): id is number => id !== null));
  const botIds = [...new Set(rows.map((r) => r.botId).filter((id): id is number => id !== null))];
  const bots = new Map<number, string>(
    botIds.length ? ((await db('bots').whereIn('id', botIds).select('id', 'name')) as { id: number; name: string }[]).map((b) => [b.id, b.name]) : [],
  );
  return rows.map((r) =>
    presentConversation(r, (r.currentCallId !== null && tags.get(r.currentCallId)) || [], {
      name: (r.botId !== null && bots.get(r.botId)) || null,
      temporalUrl: options.temporalUi ? botSessionUrl(options.temporalUi, r.id) : null,
    }),
  );
}

/**
 * Messages with their author and replied-to message joined (one query per page). Alias: m. `source` reads
 * the rows from a statement's `INSERT … RETURNING *` instead (api/inbound/ingestStatement.ts).
 */
export function messageQuery(db: Db, workspaceId: number, source = 'messages'): Knex.QueryBuilder {
  return db(`${source} as m`)
    .leftJoin('operators as o', 'o.id', 'm.operator_id')
    .leftJoin('messages as r', 'r.id', 'm.reply_to_id')
    .where('m.workspace_id', workspaceId)
    .select(
      'm.id',
      'm.customer_platform_id',
      'm.call_id',
      'm.external_id',
      'm.content',
      'm.text',
      'm.type',
      'm.status',
      'm.operator_id',
      'm.sender',
      'm.is_deleted',
      'm.is_media',
      'm.reply_to_id',
      'm.extra_data',
      'm.created_at',
      'm.delivery_state',
      'm.delivery_error',
      'o.name as operator_name',
      'o.avatar as operator_avatar',
      'r.content as reply_content',
      'r.text as reply_text',
      'r.external_id as reply_external_id',
      'r.is_deleted as reply_deleted',
    );
}

function withUrls(content: ContentItem[], fileUrl?: FileUrl): unknown[] {
  if (!fileUrl) return content;
  return content.map((item) => (isFileItem(item) ? { file: { ...item.file, url: fileUrl(item.file.key) } } : item));
}

export interface MessagePresentOptions {
  /** The customer's picture, shown beside their messages. */
  customerAvatar?: string | null;
  fileUrl?: FileUrl;
}

export function presentMessage(row: MessageRow, options: MessagePresentOptions = {}): MessageView {
  const operator = row.operatorId !== null && row.operatorName !== null ? { id: row.operatorId, name: row.operatorName, avatar: row.operatorAvatar } : null;
  const avatar = row.sender === 'customer' ? (options.customerAvatar ?? null) : row.sender === 'operator' ? (operator?.avatar ?? null) : null;
  const hasExtra = row.extraData && Object.keys(row.extraData).length > 0;
  return {
    id: row.id,
    externalId: row.externalId,
    content: row.isDeleted ? [] : withUrls(row.content, options.fileUrl),
    text: row.isDeleted ? '' : row.text,
    type: row.type,
    status: row.status,
    createdAt: row.createdAt,
    operatorId: row.operatorId,
    Operator: operator,
    sender: row.sender,
    avatar,
    isDeleted: row.isDeleted,
    isMedia: row.isMedia,
    replyTo:
      row.replyToId !== null && row.replyContent !== null
        ? {
            id: row.replyToId,
            content: row.replyDeleted ? [] : withUrls(row.replyContent, options.fileUrl),
            text: row.replyDeleted ? '' : (row.replyText ?? ''),
            externalId: row.replyExternalId,
          }
        : null,
    callMessage: { callId: row.callId },
    Call: hasExtra ? { extraData: row.extraData } : null,
    customerPlatformId: row.customerPlatformId,
    deliveryState: row.deliveryState ?? null,
    deliveryError: row.deliveryError ?? null,
  };
}

export async function findMessageView(db: Db, workspaceId: number, messageId: number, options: MessagePresentOptions = {}): Promise<MessageView | undefined> {
  const row: MessageRow | undefined = await messageQuery(db, workspaceId).where('m.id', messageId).first();
  return row && presentMessage(row, options);
}

/** One conversation as the given operator sees it (their `starred`), whatever its visibility now. */
export async function conversationView(db: Db, workspaceId: number, id: number, operatorId: number): Promise<ConversationView> {
  const row = await findConversation(db, workspaceId, id, operatorId);
  if (!row) throw errors.notFound('Conversa não encontrada.');
  const [view] = await presentConversations(db, [row]);
  return view;
}
