import { DisconnectReason, WAMessageStubType, isJidGroup, isLidUser, jidNormalizedUser, type BaileysEventMap, type Contact } from 'baileys';
import type { proto } from 'baileys';
import { waProto } from './waProto';
import { setChannelStatus, type ChannelStatusReason } from '../../../api/channels/channelStatus';
import type { StoredFileRef } from '../../../api/conversations/content';
import { receiveInbound, type InboundDeps } from '../../../api/inbound/receiveInbound';
import { publishMessageStatus } from '../../../api/conversations/fanout';
import { MessageStatus } from '../../../api/models/Message';
import type { PostgresAuthState } from './authState';
import type { QrLine } from '../../../api/channels/whatsapp/qr/sessionQueue';
import { parseWaMessage, type ParsedWaMessage } from './inboundMessage';
import { phoneOfJid, recordLidMapping, resolveJid } from '../../../api/channels/whatsapp/qr/lidIdentity';
import { InboundStorageFullError } from '../../../api/channels/inboundFile';
import { storedConnection, type ChannelInbound, type ParsedEvent } from '../../../api/channels/inbound';

/** The part of Baileys' socket this module listens to (a fake in tests, `makeWASocket` in the worker). */
export interface QrSocketEvents {
  ev: { on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void };
}

/** Statuses a QR line moves through (channels.status; SPEC §4 names). */
export const QrStatus = { connecting: 'processing_channel', qr: 'qr_code', connected: 'connected', disconnected: 'disconnected' } as const;

/** What to do after `connection: 'close'`, by Baileys' DisconnectReason. */
export type CloseDecision =
  | { action: 'reconnect'; backoff: boolean; clearSession: boolean; reason: string }
  | { action: 'stop'; loggedOut: boolean; clearSession: boolean; reason: string };

/**
 * The reconnect rule (docs/channels/whatsapp.md "Connection"): WhatsApp asking for a restart (515, after
 * the QR is read) reconnects at once; a lost, closed or timed-out connection and an unavailable service
 * reconnect with backoff; a corrupt session is dropped and reconnects to a new QR; logged out (401) and a
 * device mismatch (411) drop the session and stop; a socket replaced by another (440) and a forbidden
 * account (403) stop without a loop. A QR nobody read in time (408 before the line ever linked) stops too.
 */
export function decideOnClose(statusCode: number | undefined, linked: boolean): CloseDecision {
  switch (statusCode) {
    case DisconnectReason.restartRequired:
      return { action: 'reconnect', backoff: false, clearSession: false, reason: 'restartRequired' };
    case DisconnectReason.loggedOut:
      return { action: 'stop', loggedOut: true, clearSession: true, reason: 'loggedOut' };
    case DisconnectReason.multideviceMismatch:
      return { action: 'stop', loggedOut: true, clearSession: true, reason: 'multideviceMismatch' };
    case DisconnectReason.connectionReplaced:
      return { action: 'stop', loggedOut: false, clearSession: false, reason: 'connectionReplaced' };
    case DisconnectReason.forbidden:
      return { action: 'stop', loggedOut: false, clearSession: false, reason: 'forbidden' };
    case DisconnectReason.badSession:
      return { action: 'reconnect', backoff: true, clearSession: true, reason: 'badSession' };
    case DisconnectReason.timedOut:
      if (!linked) return { action: 'stop', loggedOut: false, clearSession: false, reason: 'qrTimedOut' };
      return { action: 'reconnect', backoff: true, clearSession: false, reason: 'timedOut' };
    default:
      return { action: 'reconnect', backoff: true, clearSession: false, reason: statusCode === undefined ? 'unknown' : String(DisconnectReason[statusCode] ?? statusCode) };
  }
}

/**
 * What the line's label says after a close (api/channels/channelStatus.ts): reconnecting by itself only
 * while a backoff runs; otherwise what the user must do — read a new QR (logged out, device mismatch, QR
 * not read in time) or restart the line (replaced by another session, refused).
 */
export function reasonOfClose(decision: CloseDecision): ChannelStatusReason | null {
  if (decision.action === 'reconnect') return decision.backoff ? 'reconnecting' : null;
  return decision.loggedOut || decision.reason === 'qrTimedOut' ? 'qr_logged_out' : 'qr_stopped';
}

/** Baileys' per-message status (WebMessageInfo.Status) → our delivery status 1–4; none for pending/error. */
export function statusFromWa(status: number | null | undefined): number | undefined {
  switch (status) {
    case waProto.WebMessageInfo.Status.SERVER_ACK:
      return MessageStatus.RECEIVED;
    case waProto.WebMessageInfo.Status.DELIVERY_ACK:
      return MessageStatus.DELIVERED;
    case waProto.WebMessageInfo.Status.READ:
    case waProto.WebMessageInfo.Status.PLAYED:
      return MessageStatus.READ;
    default:
      return undefined;
  }
}

export interface QrHandlerDeps extends InboundDeps {
  auth: PostgresAuthState;
  /**
   * Downloads a message's media into our storage: the stored file, or `tooLarge` past the 16 MB limit.
   * The worker passes Baileys' downloadMediaMessage + FileStorage; tests a fake.
   */
  fetchMedia(message: proto.IWebMessageInfo, parsed: ParsedWaMessage): Promise<StoredFileRef | { tooLarge: true }>;
  /** The connection closed: the activity decides to reconnect or stop (the workflow reports it). */
  onClose(decision: CloseDecision): void;
  /** Group subject for a group JID, when the socket can tell it. */
  groupName?(jid: string): Promise<string | null>;
}

export interface QrLineInfo extends QrLine {
  allowGroups: boolean;
}

export interface QrHandler {
  /** Resolves when every event received so far is handled (events are handled one at a time, in order). */
  idle(): Promise<void>;
}

const TOO_LARGE_NOTE = 'Arquivo recebido maior que 16 MB: não foi baixado.';

/** The socket events that carry messages, as Baileys emits them. */
export type QrMessageEvent =
  | { event: 'messages.upsert'; arg: BaileysEventMap['messages.upsert'] }
  | { event: 'messages.update'; arg: BaileysEventMap['messages.update'] }
  | { event: 'message-receipt.update'; arg: BaileysEventMap['message-receipt.update'] };

/** A QR event's item: the message received, or the status an agent message moved to. */
export interface QrItem {
  message?: proto.IWebMessageInfo;
  status?: number;
}

type QrLineRef = { id: number; workspaceId: number };

/**
 * The inbound half of a WhatsApp QR line (api/channels/inbound.ts), whose entry is the worker's socket
 * (attachQrHandlers below): `verify` is the socket itself — the events come from the line's own WhatsApp
 * Web session, so the event is the line's; `parse` turns a socket event into the normalised events:
 * `message` (messages.upsert), `delete` (a message revoked on the phone), `status` (an agent message's
 * update or receipt, delivered or read).
 */
export const qrInbound: ChannelInbound<{ line: QrLine; event: QrMessageEvent }, { line: QrLine; event: QrMessageEvent }, QrItem, { line: QrLine; event: QrMessageEvent }, QrLineRef> = {
  type: 'whatsapp',
  async verify(_deps, request) {
    return request;
  },
  async parse(_deps, { line, event }) {
    const channel = { id: line.channelId, workspaceId: line.workspaceId };
    const events: ParsedEvent<QrItem, QrLineRef>[] = [];
    if (event.event === 'messages.upsert') {
      for (const message of event.arg.messages) events.push({ kind: 'message', channel, externalId: message.key?.id ?? null, item: { message } });
    } else if (event.event === 'messages.update') {
      for (const { key, update } of event.arg) {
        if (!key.id) continue;
        // Deleted on the phone.
        if (update.messageStubType === WAMessageStubType.REVOKE && update.message === null) {
          events.push({ kind: 'delete', channel, externalId: key.id, item: {} });
          continue;
        }
        const status = key.fromMe ? statusFromWa(update.status) : undefined;
        if (status) events.push({ kind: 'status', channel, externalId: key.id, item: { status } });
      }
    } else {
      for (const { key, receipt } of event.arg) {
        if (!key.id || !key.fromMe) continue;
        const status = receipt.readTimestamp || receipt.playedTimestamp ? MessageStatus.READ : receipt.receiptTimestamp ? MessageStatus.DELIVERED : undefined;
        if (status && (isJidGroup(key.remoteJid ?? '') || key.remoteJid)) events.push({ kind: 'status', channel, externalId: key.id, item: { status } });
      }
    }
    return events;
  },
  status: storedConnection,
};

/**
 * Maps the socket's events to the product (docs/channels/whatsapp.md "QR transport"): status and QR,
 * saved creds, inbound messages through the shared idempotent pipeline, deletions, receipts and LID ↔
 * phone pairs. Events run one after another, so a message is never stored before the mapping that came
 * with it.
 */
export function attachQrHandlers(deps: QrHandlerDeps, line: QrLineInfo, socket: QrSocketEvents): QrHandler {
  let chain: Promise<void> = Promise.resolve();
  const scope = { workspaceId: line.workspaceId, channelId: line.channelId };
  const channel = { id: line.channelId, workspaceId: line.workspaceId };
  const on = <T extends keyof BaileysEventMap>(event: T, run: (arg: BaileysEventMap[T]) => Promise<void>) =>
    socket.ev.on(event, (arg) => {
      chain = chain.then(() => run(arg)).catch((err: unknown) => deps.logger.error({ err, event, channelId: line.channelId }, 'whatsapp qr event failed'));
    });

  const saveConnection = async (values: Record<string, unknown>) => {
    await deps.knex('whatsapp_connections')
      .insert({ ...scope, ...values })
      .onConflict(['workspace_id', 'channel_id'])
      .merge({ ...values, updatedAt: deps.knex.fn.now() });
  };

  on('connection.update', async (update) => {
    if (update.qr) {
      await saveConnection({ qrcode: update.qr, qrcodeAt: new Date() });
      await setChannelStatus(deps, channel, QrStatus.qr);
    }
    if (update.connection === 'connecting' && !update.qr) await setChannelStatus(deps, channel, QrStatus.connecting);
    if (update.connection === 'open') {
      const me = deps.auth.state.creds.me;
      await saveConnection({ qrcode: null, qrcodeAt: null, meJid: me?.id ? jidNormalizedUser(me.id) : null, meLid: me?.lid ? jidNormalizedUser(me.lid) : null });
      await setChannelStatus(deps, channel, QrStatus.connected);
    }
    if (update.connection === 'close') {
      const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
      const decision = decideOnClose(error?.output?.statusCode, !!deps.auth.state.creds.me);
      if (decision.clearSession) await deps.auth.clear();
      await saveConnection({ qrcode: null, qrcodeAt: null });
      await setChannelStatus(deps, channel, decision.action === 'stop' ? QrStatus.disconnected : QrStatus.connecting, reasonOfClose(decision));
      deps.onClose(decision);
    }
  });

  on('creds.update', async () => {
    await deps.auth.saveCreds();
  });

  const learnContacts = async (contacts: Partial<Contact>[]) => {
    for (const c of contacts) {
      if (!c.id || !c.lid) continue;
      // Contacts come keyed either way round: the phone JID with its lid, or the lid with its phone.
      if (isLidUser(c.id)) continue;
      await recordLidMapping(deps.knex, line, c.lid, c.id);
    }
  };
  on('chats.phoneNumberShare', async ({ lid, jid }) => {
    await recordLidMapping(deps.knex, line, lid, jid);
  });
  on('contacts.upsert', learnContacts);
  on('contacts.update', learnContacts);

  /** A message event through the QR inbound half (qrInbound): received messages, deletions, statuses. */
  const handleEvent = async (event: QrMessageEvent) => {
    for (const parsed of await qrInbound.parse(deps, await qrInbound.verify(deps, { line, event }))) {
      const id = parsed.externalId;
      if (parsed.kind === 'message' && parsed.item.message) await receiveOne(parsed.item.message);
      else if (parsed.kind === 'delete' && id) await removeMessage(id);
      else if (parsed.kind === 'status' && id && parsed.item.status) await moveStatus(id, parsed.item.status);
    }
  };

  on('messages.upsert', (arg) => handleEvent({ event: 'messages.upsert', arg }));

  const receiveOne = async (message: proto.IWebMessageInfo) => {
    const parsed = parseWaMessage(message);
    if (!parsed) return;
    if (parsed.isGroup && !line.allowGroups) return;
    // Newer WhatsApp stanzas carry the other address of the sender on the key; learn it when present.
    const alt = message.key as { senderPn?: string; participantPn?: string; remoteJidAlt?: string; participantAlt?: string };
    const altPhone = alt.senderPn ?? alt.participantPn ?? alt.remoteJidAlt ?? alt.participantAlt;
    if (altPhone && isLidUser(parsed.senderJid)) await recordLidMapping(deps.knex, line, parsed.senderJid, altPhone);

    const identityJid = parsed.isGroup ? parsed.chatJid : await resolveJid(deps.knex, line, parsed.chatJid);
    const content: unknown[] = [];
    let note: string | null = null;
    if (parsed.media) {
      // Over the workspace's storage budget nothing was kept: the message says so instead of being lost.
      const file = await deps.fetchMedia(message, parsed).catch((err: unknown) => {
        if (err instanceof InboundStorageFullError) return { refused: err.note };
        throw err;
      });
      if ('tooLarge' in file) note = TOO_LARGE_NOTE;
      else if ('refused' in file) note = file.refused;
      else content.push({ file });
    }
    const text = [parsed.text, note].filter(Boolean).join('\n');
    if (text) content.push({ insert: `${text}\n` });
    const member = parsed.isGroup ? await resolveJid(deps.knex, line, parsed.senderJid) : null;
    const groupName = parsed.isGroup && deps.groupName ? await deps.groupName(parsed.chatJid) : null;
    await receiveInbound(deps, {
      ...scope,
      externalId: parsed.id,
      identity: {
        externalId: identityJid,
        name: parsed.isGroup ? groupName : parsed.pushName,
        phone: parsed.isGroup ? null : phoneOfJid(identityJid),
      },
      content,
      replyToExternalId: parsed.replyToExternalId,
      sentAt: parsed.sentAt,
      extraData: {
        whatsapp: {
          ...(parsed.media ? { mediaKind: parsed.media.kind, voiceNote: parsed.media.ptt } : {}),
          ...(member ? { participant: member, participantName: parsed.pushName } : {}),
          ...(note ? { mediaRefused: true } : {}),
        },
      },
    });
  };

  /**
   * After a receipt or a deletion changed our rows: `chat.messageStatus` to everyone who may see the
   * conversation, as every channel does, so ✓✓, read and 'Mensagem removida' show without a reload.
   */
  const publishChanged = async (rows: { id: number; status: number; customerPlatformId: number }[], extra: Record<string, unknown> = {}) => {
    for (const row of rows) {
      const cp = await deps.knex('customer_platforms').where({ id: row.customerPlatformId, workspaceId: line.workspaceId }).first('id', 'workspace_id', 'operator_id', 'group_id');
      if (cp) await publishMessageStatus(deps, cp, row.id, row.status, extra);
    }
  };

  const moveStatus = async (externalId: string, status: number) => {
    // Receipts only move forward, and only on our own messages (the agent's): a late 'delivered' after
    // 'read' changes nothing.
    const moved = await deps.knex('messages')
      .where({ channelId: line.channelId, externalId, workspaceId: line.workspaceId })
      .whereNot({ sender: 'customer' })
      .where('status', '<', status)
      .update({ status, updatedAt: deps.knex.fn.now() })
      .returning(['id', 'status', 'customer_platform_id']);
    await publishChanged(moved);
  };

  // Deleted on the phone: the row stays, empty and marked, as an agent's deletion (the UI shows 'Mensagem removida').
  const removeMessage = async (externalId: string) => {
    const removed = await deps.knex('messages')
      .where({ channelId: line.channelId, externalId, workspaceId: line.workspaceId, isDeleted: false })
      .update({ content: '[]', text: '', isMedia: false, isDeleted: true, updatedAt: deps.knex.fn.now() })
      .returning(['id', 'status', 'customer_platform_id']);
    await publishChanged(removed, { isDeleted: true });
  };

  on('messages.update', (arg) => handleEvent({ event: 'messages.update', arg }));
  on('message-receipt.update', (arg) => handleEvent({ event: 'message-receipt.update', arg }));

  return { idle: () => chain };
}
