import type { Knex } from 'knex';
import { preparedStatement } from '../db/prepared';
import { MessageStatus } from '../models/Message';
import { memberSeesConversationSql } from '../policy/conversations';
import { conversationQuery, type ConversationRow } from '../conversations/queries';
import { messageQuery, tagsJsonSql, type MessageRow, type TagView } from '../conversations/presenters';
import { isMediaContent, type ContentItem } from '../conversations/content';
import type { InboundMessage, InboundResult } from '../conversations/types';

/**
 * An inbound message in one autocommitted statement (docs/performance.md "Ingest"): the common cases of
 * receiveInbound without a transaction's BEGIN, COMMIT and the statements between them. Each round trip
 * costs the api's core a query build, a socket write and a result parse, and the one-statement path is
 * what brings a returning visitor's widget message to 3 round trips (token, this, the published mark).
 *
 * Two statements, each a data-modifying CTE prepared once (api/db/prepared.ts):
 * - `openCall`: the identity's conversation exists and has an open call (a returning visitor). It locks the
 *   conversation, then its open call (FOR UPDATE rechecks `is_finished` on the latest row, so a resolve
 *   that committed meanwhile is seen), stores the event already processed, the message, the call's waiting
 *   clock and the conversation's preview;
 * - `firstContact`: no conversation yet and nothing that needs the api's code for a new call (no bot lists
 *   the channel, no assignment rule for it): contact, conversation, call (its protocol taken from the
 *   workspace's counter in the statement, so the counter row is held only until this statement commits,
 *   as the commit-time trigger would), event and message, with explicit ids from their sequences.
 * Both read back, from what they wrote, everything the rest of the pipeline would read next: the
 * conversation as the inbox presents it (conversationQuery), its call's tags and bot name, the message
 * as the inbox presents it (messageQuery), who starred it, who may see it (the policy's rule, arm by arm)
 * and whether anyone of the workspace receives Web Push. The fan-out then reads nothing.
 *
 * Anything else answers `undefined` having written nothing, and receiveInbound takes its transaction path:
 * a resolved conversation (a new call), a bot or assignment rule for a new call, a webhook subscribed to
 * message:received (the outbox payload is built by the api), a WhatsApp identity (campaign replies and
 * opt-outs), a message or event stored already (duplicates), or a race the statement lost (its writes
 * do not add up: `inbound_abort` aborts the whole statement, migration 20261129230000). Both statements
 * take the event row first, as the transaction path does, so the two paths wait for each other on the
 * same key instead of deadlocking.
 */

const MESSAGE_KEYS = ['ws', 'ch', 'ident', 'ext', 'payload', 'content', 'text', 'type', 'isMedia', 'replyExt', 'extra', 'at', 'preview', 'campaign'] as const;
const CONTACT_KEYS = ['name', 'email', 'phone', 'avatar'] as const;
type MessageKey = (typeof MESSAGE_KEYS)[number];
type ContactKey = (typeof CONTACT_KEYS)[number];

/** Guards that send a message to the transaction path (see above), for workspace `ws` and channel `ch`. */
function needsNoApiCode(p: Record<MessageKey, string>): string {
  return `NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.workspace_id = ${p.ws}::int AND w.disabled_at IS NULL AND 'message:received' = ANY (w.subscriptions))
    AND NOT (${p.campaign}::boolean AND EXISTS (SELECT 1 FROM channels wa WHERE wa.id = ${p.ch}::int AND wa.type = 'whatsapp'))
    AND NOT EXISTS (SELECT 1 FROM messages d WHERE d.channel_id = ${p.ch}::int AND d.external_id = ${p.ext}::text)`;
}

/** The event, stored processed with its result; an event stored earlier and never processed is finished. */
function eventInsert(p: Record<MessageKey, string>, ids: string): string {
  return `INSERT INTO inbound_events AS e (workspace_id, channel_id, external_id, kind, payload, processed_at, attempts)
    SELECT ${p.ws}::int, ${p.ch}::int, ${p.ext}::text, 'message',
      ${p.payload}::jsonb || jsonb_build_object('result', jsonb_build_object('conversationId', ${ids}.cp_id, 'messageId', ${ids}.message_id, 'callId', ${ids}.call_id, 'duplicate', false)),
      CURRENT_TIMESTAMP, 1
    FROM ${ids}
    ON CONFLICT (channel_id, external_id) DO UPDATE SET processed_at = EXCLUDED.processed_at, attempts = e.attempts + 1, last_error = NULL,
      payload = e.payload || jsonb_build_object('result', EXCLUDED.payload->'result')
    WHERE e.processed_at IS NULL AND e.workspace_id = EXCLUDED.workspace_id
    RETURNING e.id`;
}

/**
 * The message, into `ids`' conversation and call. `replyTo`: the message it quotes, by its external id in
 * the channel (a new conversation has none to quote); looked up only when there is one, and by the
 * channel's external-id key.
 */
function messageInsert(p: Record<MessageKey, string>, from: string, replyTo: boolean): string {
  const reply = replyTo
    ? `CASE WHEN ${p.replyExt}::text IS NULL THEN NULL ELSE (SELECT r.id FROM messages r WHERE r.channel_id = ${p.ch}::int AND r.external_id = ${p.replyExt}::text AND r.customer_platform_id = ids.cp_id) END`
    : `NULL::bigint`;
  return `INSERT INTO messages (id, workspace_id, customer_platform_id, call_id, external_id, content, text, type, status, sender, is_media, reply_to_id, extra_data, created_at)
    SELECT ids.message_id, ${p.ws}::int, ids.cp_id, ids.call_id, ${p.ext}::text, ${p.content}::jsonb, ${p.text}::text, ${p.type}::int, ${MessageStatus.RECEIVED}, 'customer', ${p.isMedia}::boolean,
      ${reply}, ${p.extra}::jsonb, ${p.at}::timestamptz
    FROM ${from}
    ON CONFLICT DO NOTHING RETURNING *`;
}

type Params = Record<MessageKey | ContactKey, string>;
type Write = (write: (p: Params) => string, bindings?: readonly Knex.Value[]) => Knex.Raw;

/**
 * knex.raw with named parameters: `write` puts `p.<name>` where a parameter goes, and it is bound there
 * (as the prepared statement's marker), in the order the names appear; `bindings` follow for the `?`
 * the text has itself.
 */
function writer(knex: Knex, params: Params): Write {
  const names = new Proxy({} as Params, { get: (_, k) => `«${String(k)}»` });
  return (write, bindings = []) => {
    const values: unknown[] = [];
    let own = 0;
    const text = write(names).replace(/«([A-Za-z]+)»|\?/g, (_match, k: keyof Params | undefined) => {
      values.push(k === undefined ? bindings[own++] : params[k]);
      return '?';
    });
    return knex.raw(text, values as Knex.Value[]);
  };
}

/**
 * The main SELECT: what was written, read back for the fan-out. `conversation` reads the conversation from
 * the CTEs that wrote it; `complete` is true when every write happened (else, with the event taken, the
 * statement aborts); `found` says whether the identity had a conversation.
 */
function readBack(knex: Knex, r: Write, params: Params, conversation: Knex.QueryBuilder, complete: string, found: string): Knex.QueryBuilder {
  const sees = memberSeesConversationSql({ operatorId: 'conv.operator_id', groupId: 'conv.group_id' });
  return knex
    .select(
      knex.raw(`${found} AS found_conversation_id`),
      knex.raw('(SELECT id FROM ev) AS event_id'),
      knex.raw('(SELECT id FROM ins) AS message_id'),
      knex.raw(`CASE WHEN (SELECT id FROM ev) IS NOT NULL AND NOT (${complete}) THEN inbound_abort('inbound statement lost a race: the transaction path takes it') END AS aborted`),
      r((p) => `(SELECT array_agg(f.operator_id) FROM customer_platform_favorites f WHERE f.workspace_id = ${p.ws}::int AND f.customer_platform_id = conv.id) AS starred_by`),
      r((p) => `EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.workspace_id = ${p.ws}::int) AS has_push`),
      r((p) => `(SELECT array_agg(m.operator_id ORDER BY m.operator_id) FROM workspace_members m WHERE m.workspace_id = ${p.ws}::int AND m.is_active AND (${sees.sql})) AS recipients`, sees.bindings),
      knex.raw(`${tagsJsonSql('conv.current_call_id')} AS tags`),
      knex.raw('(SELECT b.name FROM bots b WHERE b.id = conv.bot_id) AS bot_name'),
      knex.raw('(SELECT row_to_json(mv) FROM (?) mv) AS message', [messageQuery(knex, params.ws as unknown as number, 'ins') as unknown as Knex.Raw]),
      'conv.*',
    )
    .from(knex.raw('(SELECT 1) AS one'))
    .joinRaw('LEFT JOIN (?) AS conv ON true', [conversation as unknown as Knex.Raw]);
}

const openCall = preparedStatement('inbound_open_call', MESSAGE_KEYS, (knex, params) => {
  const all = params as Params;
  const r = writer(knex, all);
  return knex
    .with('cp', r((p) => `SELECT id FROM customer_platforms WHERE channel_id = ${p.ch}::int AND external_id = ${p.ident}::text AND workspace_id = ${p.ws}::int FOR UPDATE`))
    .with('open_call', knex.raw('SELECT c.id FROM calls c WHERE c.customer_platform_id = (SELECT id FROM cp) AND NOT c.is_finished FOR UPDATE'))
    .with('ids', r((p) => `SELECT cp.id AS cp_id, open_call.id AS call_id, nextval('messages_id_seq') AS message_id FROM cp, open_call WHERE ${needsNoApiCode(p)}`))
    .with('ev', r((p) => eventInsert(p, 'ids')))
    .with('ins', r((p) => messageInsert(p, 'ids, ev', true)))
    .with('call_waiting', r((p) => `UPDATE calls SET waiting_since = coalesce(waiting_since, ${p.at}::timestamptz) FROM ins WHERE calls.id = ins.call_id`))
    .with(
      'upd',
      r(
        (p) => `UPDATE customer_platforms SET last_message = ${p.preview}::jsonb, last_message_at = greatest(last_message_at, ${p.at}::timestamptz), has_new_messages = true,
          is_finished = false, current_call_id = ins.call_id, updated_at = CURRENT_TIMESTAMP
        FROM ins WHERE customer_platforms.id = ins.customer_platform_id RETURNING customer_platforms.*`,
      ),
    )
    .select('rb.*')
    .from(readBack(knex, r, all, conversationQuery(knex, params.ws as unknown as number, undefined, 'upd'), '(SELECT id FROM upd) IS NOT NULL', '(SELECT id FROM cp)').as('rb'));
});

/** A new conversation quotes nothing: its statement takes no reply key. */
const FIRST_CONTACT_KEYS = [...MESSAGE_KEYS.filter((k) => k !== 'replyExt'), ...CONTACT_KEYS];

const firstContact = preparedStatement('inbound_first_contact', FIRST_CONTACT_KEYS, (knex, given) => {
  // No writer below asks for replyExt (messageInsert without a reply); a compile that did would fail on it.
  const params = given as Params;
  const r = writer(knex, params);
  return knex
    .with(
      'ids',
      r(
        (p) => `SELECT nextval('customers_id_seq') AS customer_id, nextval('customer_platforms_id_seq') AS cp_id, nextval('calls_id_seq') AS call_id, nextval('messages_id_seq') AS message_id
        WHERE ${needsNoApiCode(p)}
          AND NOT EXISTS (SELECT 1 FROM customer_platforms x WHERE x.channel_id = ${p.ch}::int AND x.external_id = ${p.ident}::text)
          AND NOT EXISTS (SELECT 1 FROM bots b WHERE b.workspace_id = ${p.ws}::int AND b.is_active AND b.definition->'channels' @> jsonb_build_array(${p.ch}::int))
          AND NOT EXISTS (SELECT 1 FROM assignment_rules ar WHERE ar.workspace_id = ${p.ws}::int AND ar.is_active AND (ar.rules->>'workspacePlatformId')::int = ${p.ch}::int)`,
      ),
    )
    .with('ev', r((p) => eventInsert(p, 'ids')))
    .with(
      'new_cp',
      r(
        (p) => `INSERT INTO customer_platforms (id, workspace_id, channel_id, customer_id, external_id, current_call_id, last_message, last_message_at, has_new_messages)
        SELECT ids.cp_id, ${p.ws}::int, ${p.ch}::int, ids.customer_id, ${p.ident}::text, ids.call_id, ${p.preview}::jsonb, greatest(CURRENT_TIMESTAMP, ${p.at}::timestamptz), true
        FROM ids, ev
        ON CONFLICT (channel_id, external_id) DO NOTHING RETURNING *`,
      ),
    )
    .with(
      'new_customer',
      r(
        (p) => `INSERT INTO customers (id, workspace_id, name, email, phone, avatar, origin)
        SELECT new_cp.customer_id, ${p.ws}::int, ${p.name}::text, ${p.email}::text, ${p.phone}::text, ${p.avatar}::text, 'visitor' FROM new_cp RETURNING *`,
      ),
    )
    .with(
      'counter',
      r(
        (p) => `INSERT INTO call_protocol_counters AS pc (workspace_id, last_value) SELECT ${p.ws}::int, 1 FROM new_cp
        ON CONFLICT (workspace_id) DO UPDATE SET last_value = pc.last_value + 1 RETURNING pc.last_value`,
      ),
    )
    .with(
      'new_call',
      r(
        (p) => `INSERT INTO calls (id, workspace_id, customer_platform_id, protocol, waiting_since)
        SELECT new_cp.current_call_id, ${p.ws}::int, new_cp.id, counter.last_value, ${p.at}::timestamptz FROM new_cp, counter RETURNING *`,
      ),
    )
    .with('ins', r((p) => messageInsert(p, 'ids, new_call WHERE new_call.id = ids.call_id', false)))
    .select('rb.*')
    .from(
      readBack(
        knex,
        r,
        params,
        conversationQuery(knex, params.ws as unknown as number, undefined, { conversations: 'new_cp', customers: 'new_customer', calls: 'new_call' }),
        '(SELECT id FROM ins) IS NOT NULL',
        'NULL::bigint',
      ).as('rb'),
    );
});

interface StatementRow extends Partial<ConversationRow> {
  foundConversationId: number | null;
  eventId: number | null;
  messageId: number | null;
  starredBy: number[] | null;
  hasPush: boolean;
  recipients: number[] | null;
  tags: TagView[];
  botName: string | null;
  message: Record<string, unknown> | null;
}

/** What a message stored by one statement leaves for the rest of the pipeline (receiveInbound's fan-out). */
export interface StoredInOneStatement {
  result: InboundResult;
  eventId: number;
  /** A first contact: the call was opened here (chat.newCall goes out with chat.newMessage). */
  openedCall: boolean;
  conversation: ConversationRow;
  starredBy: number[];
  recipients: number[];
  tags: TagView[];
  botName: string | null;
  message: MessageRow;
  hasPush: boolean;
}

export type OneStatementOutcome =
  | { kind: 'stored'; stored: StoredInOneStatement }
  /** openCall found no conversation for the identity: a first contact may still take firstContact. */
  | { kind: 'no-conversation' }
  /** Nothing written: the transaction path takes the message. */
  | { kind: 'transaction' };

export interface MessageFields {
  createdAt: Date;
  content: ContentItem[];
  text: string;
  type: number;
  extraData: Record<string, unknown>;
  /** The conversation's last_message preview. */
  preview: string;
  /** receiveInbound's stored event payload. */
  payload: string;
  /** A WhatsApp identity with a phone: campaign replies and opt-outs take the transaction path. */
  campaignPhone: boolean;
}

function cut(value: string | null | undefined, max: number): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

/** `message` of the statement's row: row_to_json keeps snake_case keys and ISO timestamps. */
function messageRow(knex: Knex, json: Record<string, unknown>): MessageRow {
  const row = (knex.client as unknown as { postProcessResponse(r: unknown, c: unknown): unknown }).postProcessResponse(json, undefined) as MessageRow & { createdAt: string | Date };
  return { ...row, createdAt: new Date(row.createdAt) };
}

/**
 * Stores `msg` in one statement when it can (see above). `kind` picks the statement: a message of a
 * conversation that exists (most messages), or a first contact (the widget knows: a visitor without a
 * token). Never throws for a lost race; any other error (the database away) is the caller's.
 */
export async function storeInOneStatement(knex: Knex, msg: InboundMessage, fields: MessageFields, kind: 'open-call' | 'first-contact'): Promise<OneStatementOutcome> {
  const values: Record<MessageKey, unknown> = {
    ws: msg.workspaceId,
    ch: msg.channelId,
    ident: msg.identity.externalId,
    ext: msg.externalId,
    payload: fields.payload,
    content: JSON.stringify(fields.content),
    text: fields.text,
    type: fields.type,
    isMedia: isMediaContent(fields.content),
    replyExt: msg.replyToExternalId ?? null,
    extra: JSON.stringify(fields.extraData),
    at: fields.createdAt,
    preview: fields.preview,
    campaign: fields.campaignPhone,
  };
  let rows: StatementRow[];
  try {
    rows =
      kind === 'open-call'
        ? await openCall.rows<StatementRow>(knex, values)
        : await firstContact.rows<StatementRow>(knex, {
            ...values,
            name: cut(msg.identity.name, 255),
            email: cut(msg.identity.email, 254),
            phone: cut(msg.identity.phone, 32),
            avatar: cut(msg.identity.avatar, 500),
          });
  } catch (err) {
    if ((err as { code?: string }).code === 'BLC01') return { kind: 'transaction' };
    throw err;
  }
  const [row] = rows;
  if (!row || row.messageId === null || row.eventId === null || !row.message) {
    return kind === 'open-call' && row?.foundConversationId === null ? { kind: 'no-conversation' } : { kind: 'transaction' };
  }
  const { foundConversationId: _found, eventId, messageId, starredBy, hasPush, recipients, tags, botName, message, ...conversation } = row;
  const conv = conversation as ConversationRow;
  return {
    kind: 'stored',
    stored: {
      result: { conversationId: conv.id, messageId, callId: conv.currentCallId!, duplicate: false },
      eventId,
      openedCall: kind === 'first-contact',
      conversation: conv,
      starredBy: starredBy ?? [],
      recipients: recipients ?? [],
      tags,
      botName,
      message: messageRow(knex, message),
      hasPush,
    },
  };
}
