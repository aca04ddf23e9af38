import type { AddressObject } from 'mailparser';
import type { ChannelDeps, ChannelRecord } from '../adapter';
import { errors } from '../../http/errors';
import { channelByIdentifier } from '../hookChannel';
import { storedConnection, type ChannelInbound } from '../inbound';
import { receiveInbound, type InboundDeps } from '../../inbound/receiveInbound';
import type { ContentItem } from '../../conversations/content';
import { normalizeContent, textOf } from '../../conversations/content';
import { publishConversationEvent } from '../../conversations/fanout';
import { MessageStatus, MessageType } from '../../models/Message';
import { InboundStorageFullError, storeInboundFile } from '../inboundFile';
import {
  addressOfIdentity,
  ATTACHMENT_LIMIT,
  domainOf,
  externalIdOfMessageId,
  normalizeAddress,
  normalizeMessageId,
  referencedIds,
  threadIdentity,
} from './addresses';
import { HTML_LIMIT, type InboundMail, type SpooledAttachment } from './parseMail';

export type MailOutcome = 'stored' | 'duplicate' | 'note' | 'dropped';

export interface Envelope {
  /** MAIL FROM; '' for the null sender (bounces). */
  mailFrom: string;
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => normalizeAddress(v.address))).filter(Boolean);
}

function header(mail: Pick<InboundMail, 'headers'>, name: string): string {
  const v = mail.headers.get(name);
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.toLowerCase();
  if (typeof v === 'object' && 'value' in v && typeof (v as { value: unknown }).value === 'string') return (v as { value: string }).value.toLowerCase();
  return String(v).toLowerCase();
}

/**
 * Auto-replies and bounces (RFC 3834 Auto-Submitted, Precedence bulk/auto_reply/junk, X-Autoreply,
 * X-Auto-Response-Suppress, the null sender, mailer-daemon/postmaster): never answered by bots or
 * assignment, so two autoresponders cannot keep a loop going through us.
 */
export function isAutomatic(mail: Pick<InboundMail, 'headers'>, envelope: Envelope, from: string): boolean {
  const autoSubmitted = header(mail, 'auto-submitted');
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (['bulk', 'auto_reply', 'junk', 'list'].includes(header(mail, 'precedence').trim())) return true;
  if (header(mail, 'x-autoreply') || header(mail, 'x-autorespond') || header(mail, 'x-auto-response-suppress')) return true;
  if (!envelope.mailFrom) return true;
  const local = from.split('@')[0];
  return local === 'mailer-daemon' || local === 'postmaster' || normalizeAddress(envelope.mailFrom).startsWith('mailer-daemon@');
}

interface ThreadRow {
  id: number;
  externalId: string;
  customerId: number;
  currentCallId: number | null;
  sender: string;
}

/** Conversations of this channel holding a message with one of these Message-IDs, newest message first. */
async function referencedThreads(deps: InboundDeps, channel: ChannelRecord, refs: string[]): Promise<ThreadRow[]> {
  if (!refs.length) return [];
  const externalIds = refs.map(externalIdOfMessageId);
  return deps.knex('messages as m')
    .join('customer_platforms as cp', 'cp.id', 'm.customer_platform_id')
    .where('m.channel_id', channel.id)
    .andWhere((q) => {
      void q.whereIn('m.external_id', externalIds).orWhereRaw("m.extra_data->>'messageId' = any(?)", [refs]);
    })
    .orderBy('m.id', 'desc')
    .limit(20)
    .select('cp.id', 'cp.external_id', 'cp.customer_id', 'cp.current_call_id', 'm.sender');
}

async function storeAttachment(deps: InboundDeps, channel: ChannelRecord, a: SpooledAttachment): Promise<ContentItem> {
  const fileName = (a.filename || 'anexo').slice(0, 255);
  if (!a.file || a.size > ATTACHMENT_LIMIT) return { insert: `\n[Anexo "${fileName}" não recebido: maior que 16 MB]` };
  const mime = (a.contentType || 'application/octet-stream').split(';')[0].trim();
  try {
    return { file: await storeInboundFile(deps, { workspaceId: channel.workspaceId, channelId: channel.id }, { path: a.file, size: a.size, sha256: a.sha256, fileName, mime }) };
  } catch (err) {
    if (err instanceof InboundStorageFullError) return { insert: `\n[${err.note}]` };
    throw err;
  }
}

/** An auto-reply or bounce in the conversation it answers, as a system note; nothing else happens. */
async function storeNote(deps: InboundDeps, channel: ChannelRecord, thread: ThreadRow, externalId: string, from: string, subject: string, extraData: Record<string, unknown>): Promise<MailOutcome> {
  const callId = thread.currentCallId ?? (await deps.knex('calls').where({ customerPlatformId: thread.id }).orderBy('id', 'desc').first('id'))?.id;
  if (!callId) return 'dropped';
  const content = [{ insert: `Resposta automática de ${from || 'servidor de e-mail'}${subject ? `: ${subject}` : ''}` }];
  const [row]: { id: number }[] = await deps.knex('messages')
    .insert({
      workspaceId: channel.workspaceId,
      customerPlatformId: thread.id,
      callId,
      externalId,
      content: JSON.stringify(content),
      text: textOf(content),
      type: MessageType.SYSTEM,
      status: MessageStatus.RECEIVED,
      sender: 'system',
      extraData: JSON.stringify({ ...extraData, automatic: true }),
    })
    .onConflict()
    .ignore()
    .returning('id');
  if (!row) return 'duplicate';
  await publishConversationEvent(deps, 'chat.newMessage', channel.workspaceId, thread.id, { messageId: row.id });
  return 'note';
}

/**
 * One mail for one e-mail channel (docs/channels/email.md). Keyed by its Message-ID through the shared
 * inbound pipeline, so a redelivered mail changes nothing. It joins an existing conversation only when
 * In-Reply-To/References name a message of that conversation AND it comes from that conversation's
 * customer address; otherwise it opens a new conversation (a forged References cannot inject a mail into
 * someone else's thread). Auto-replies become a system note in the conversation they answer; mail from
 * our own forwarding domain is dropped. Attachments are read from their spool files (parseMail.ts). `rawDigest` (sha256 hex of the raw mail) names a mail that has no
 * Message-ID.
 */
export async function handleInboundMail(deps: InboundDeps, channel: ChannelRecord, mail: InboundMail, rawDigest: string, envelope: Envelope): Promise<MailOutcome> {
  const from = addressesOf(mail.from)[0] ?? normalizeAddress(envelope.mailFrom);
  if (from && domainOf(from) === deps.config.inboundEmailDomain.toLowerCase()) return 'dropped';
  const messageId = normalizeMessageId(mail.messageId) ?? `<${rawDigest}@sem-message-id>`;
  const externalId = externalIdOfMessageId(messageId);
  const subject = (mail.subject ?? '').slice(0, 500);
  const refs = referencedIds(mail.inReplyTo, mail.references);
  const extraData = { from, to: addressesOf(mail.to).length ? addressesOf(mail.to) : [channel.identifier], subject, messageId, inReplyTo: refs[0] ?? null };

  const threads = await referencedThreads(deps, channel, refs);
  if (isAutomatic(mail, envelope, from)) {
    // Only a mail naming one of our own sent Message-IDs (random, known to its recipients) can leave a note.
    const answered = threads.find((t) => t.sender !== 'customer');
    if (!answered) return 'dropped';
    return storeNote(deps, channel, answered, externalId, from, subject, extraData);
  }
  if (!from) return 'dropped';

  const already = await deps.knex('messages').where({ channelId: channel.id, externalId }).first('id');
  if (already) return 'duplicate';

  const thread = threads.find((t) => addressOfIdentity(t.externalId) === from);
  let identity = thread?.externalId;
  if (!identity) {
    identity = threadIdentity(from, messageId);
    // A new thread of a known address belongs to the same contact: its conversation row is made here so
    // the pipeline finds it instead of creating another contact.
    const known = await deps.knex('customer_platforms').where({ channelId: channel.id }).whereLike('external_id', `${from.replace(/[\\%_]/g, '\\$&')}#%`).first('customer_id');
    if (known) {
      await deps.knex('customer_platforms').insert({ workspaceId: channel.workspaceId, channelId: channel.id, externalId: identity, customerId: known.customerId }).onConflict(['channel_id', 'external_id']).ignore();
    }
  }

  const content: ContentItem[] = [{ insert: mail.text?.trim() || (subject ? subject : '(sem conteúdo)') }];
  for (const a of mail.attachments ?? []) {
    if (a.related && a.contentDisposition === 'inline') continue;
    content.push(await storeAttachment(deps, channel, a));
  }
  const html = typeof mail.html === 'string' && mail.html.length <= HTML_LIMIT ? mail.html : undefined;
  const fromName = (Array.isArray(mail.from) ? mail.from[0] : mail.from)?.value[0]?.name || null;
  const result = await receiveInbound(deps, {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId,
    identity: { externalId: identity, name: fromName || from, email: from },
    content: normalizeContent(content),
    type: MessageType.EMAIL,
    extraData: { ...extraData, ...(html ? { html } : {}) },
    sentAt: mail.date,
  });
  return result.duplicate ? 'duplicate' : 'stored';
}

/** The recipient of a mail (SMTP RCPT TO): the channel's forwarding address. */
export interface SmtpRecipient {
  address: string;
}

/** One mail for one verified recipient, as the SMTP server read it (smtpServer.ts). */
export interface RecipientMail {
  channel: ChannelRecord;
  mail: InboundMail;
  /** sha256 hex of the raw mail: names a mail that has no Message-ID. */
  rawDigest: string;
  envelope: Envelope;
}

/**
 * The e-mail channel's inbound half (docs/channels/email.md), whose entry is the api's SMTP server
 * (smtpServer.ts): `verify` is the recipient — a forwarding address that names an e-mail channel, a 404
 * otherwise (the server answers 550 at RCPT TO, before any data); `parse` turns a mail into its one message
 * event, keyed by its Message-ID, handled by handleInboundMail.
 */
export const emailInbound: ChannelInbound<SmtpRecipient, ChannelRecord, InboundMail, RecipientMail> = {
  type: 'email',

  async verify(deps, recipient) {
    const channel = await channelByIdentifier(deps.knex, 'email', normalizeAddress(recipient.address));
    if (!channel) throw errors.notFound();
    return channel;
  },

  async parse(_deps, { channel, mail, rawDigest }) {
    const messageId = normalizeMessageId(mail.messageId) ?? `<${rawDigest}@sem-message-id>`;
    return [{ kind: 'message', channel, externalId: externalIdOfMessageId(messageId), item: mail }];
  },

  status: storedConnection,
};

/** A verified recipient's mail through the e-mail channel's inbound half: each parsed event handled. */
export async function receiveMail(deps: InboundDeps & ChannelDeps, received: RecipientMail): Promise<MailOutcome[]> {
  const outcomes: MailOutcome[] = [];
  for (const event of await emailInbound.parse(deps, received)) outcomes.push(await handleInboundMail(deps, event.channel, event.item, received.rawDigest, received.envelope));
  return outcomes;
}
