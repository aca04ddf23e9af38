import type { Knex } from 'knex';
import { jidNormalizedUser } from 'baileys';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { MessageType } from '../models/Message';
import type { ConversationViewer } from '../policy/conversations';
import { loadChannel } from '../conversations/queries';
import { isCloudConfig } from '../channels/whatsapp/schema';
import { checkQrNumber } from '../channels/whatsapp/qr/qrTransport';
import { QrUnavailableError } from '../channels/whatsapp/qr/socketCall';
import { resolveJid } from '../channels/whatsapp/qr/lidIdentity';
import { sendMessage } from './sendMessage';
import type { ActiveChatReq } from './schema';

export const NO_WHATSAPP_LINE = 'Nenhuma linha de WhatsApp conectada.';
export const NOT_A_WHATSAPP_LINE = 'Selecione uma linha de WhatsApp.';
export const INVALID_ACTIVE_PHONE = 'Número inválido. Informe o número com DDI e DDD.';
export const NOT_ON_WHATSAPP = 'Este número não tem WhatsApp.';

/** DDI + DDD + number: fewer digits cannot be a full international number. */
const MIN_DIGITS = 10;

/**
 * The contact of this number in the workspace (the same digits on any channel), else a new one, and the
 * conversation of `externalId` on the line, created when missing and then handed to the agent who started it
 * (they can see it, and nobody else picks it up under them). Locked, so two starts of the same number make
 * one conversation.
 */
async function ensureConversation(trx: Knex.Transaction, viewer: ConversationViewer, channelId: number, externalId: string, digits: string, input: ActiveChatReq): Promise<number> {
  const key = { workspaceId: viewer.workspaceId, channelId, externalId };
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`active-chat:${channelId}:${externalId}`]);
  const existing: { id: number } | undefined = await trx('customer_platforms').where(key).first('id');
  if (existing) return existing.id;
  const known: { id: number } | undefined = await trx('customers')
    .where({ workspaceId: viewer.workspaceId })
    .whereRaw("regexp_replace(coalesce(phone, ''), '\\D', '', 'g') = ?", [digits])
    .orderBy('id')
    .first('id');
  const customerId =
    known?.id ??
    (
      await trx('customers')
        .insert({ workspaceId: viewer.workspaceId, name: input.name?.trim() || null, phone: `+${digits}`, avatar: input.avatar?.trim() || null, origin: 'agent' })
        .returning('id')
    )[0].id;
  const [row] = await trx('customer_platforms').insert({ ...key, customerId, operatorId: viewer.operatorId }).returning('id');
  return row.id;
}

/**
 * POST /inbox/active-chat (SPEC §5 "New outbound message", docs/channels/whatsapp.md "New outbound message"):
 * a first message to a number on a WhatsApp line. A QR line asks its live socket whether the number is on
 * WhatsApp (`onWhatsApp`, through the worker holding the socket) and uses the JID WhatsApp answers; a Cloud
 * line has no such check in Meta's API, so the message is sent to the digits and a number without WhatsApp
 * comes back as a failed delivery. The contact and conversation are reused when they exist; the message goes
 * through the same delivery path as any agent message. Answers the conversation id.
 */
export async function startActiveChat(deps: AppDeps, viewer: ConversationViewer, input: ActiveChatReq): Promise<{ id: number }> {
  const row: { id: number; type: string } | undefined = await deps.knex('channels').where({ workspaceId: viewer.workspaceId, id: input.workspacePlatformId }).first('id', 'type');
  if (!row) throw errors.notFound('Canal não encontrado.');
  if (row.type !== 'whatsapp') throw errors.field('workspacePlatformId', NOT_A_WHATSAPP_LINE);
  const channel = await loadChannel(deps.knex, viewer.workspaceId, row.id);
  const digits = input.phone;
  if (digits.length < MIN_DIGITS) throw errors.field('phone', INVALID_ACTIVE_PHONE);

  let externalId: string;
  if (isCloudConfig(channel.config)) {
    // Cloud conversations are keyed by the wa_id Meta sends (digits).
    externalId = digits;
  } else {
    let check: { exists: boolean; jid: string | null };
    try {
      check = await checkQrNumber(deps, channel, digits);
    } catch (err) {
      if (err instanceof QrUnavailableError) throw errors.field('workspacePlatformId', NO_WHATSAPP_LINE);
      throw err;
    }
    if (!check.exists || !check.jid) throw errors.field('phone', NOT_ON_WHATSAPP);
    // A LID answer with a known phone lands in the phone's conversation, as inbound messages do.
    externalId = await resolveJid(deps.knex, { workspaceId: channel.workspaceId, channelId: channel.id }, jidNormalizedUser(check.jid));
  }

  const conversationId = await deps.knex.transaction((trx) => ensureConversation(trx, viewer, channel.id, externalId, digits, input));
  await sendMessage(deps, viewer, { id: conversationId, content: input.content, type: MessageType.COMMON });
  return { id: conversationId };
}
