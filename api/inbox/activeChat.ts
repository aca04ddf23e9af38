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
import type { ChannelRecord } from '../channels/adapter';
import {
  lineTemplates,
  renderTemplate,
  templatePayload,
  templateValueErrors,
  type TemplateValues,
  type WhatsappTemplate,
} from '../channels/whatsapp/templates';
import { sendMessage } from './sendMessage';
import type { ActiveChatReq } from './schema';

export const NO_WHATSAPP_LINE = 'Nenhuma linha de WhatsApp conectada.';
export const NOT_A_WHATSAPP_LINE = 'Selecione uma linha de WhatsApp.';
export const INVALID_ACTIVE_PHONE = 'Número inválido. Informe o número com DDI e DDD.';
export const NOT_ON_WHATSAPP = 'Este número não tem WhatsApp.';
export const CLOUD_NEEDS_TEMPLATE =
  'Nas linhas da API oficial, a primeira mensagem para um número precisa ser um modelo aprovado pela Meta: escolha um modelo.';
export const QR_HAS_NO_TEMPLATES = 'Modelos de mensagem só existem em linhas da API oficial do WhatsApp. Escreva a mensagem.';
export const TEMPLATE_NOT_FOUND = 'Modelo não encontrado ou não aprovado nesta linha.';

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

/** The WhatsApp line `id` of the viewer's workspace (404 elsewhere, field error on another channel type). */
async function whatsappLine(deps: AppDeps, viewer: ConversationViewer, id: number): Promise<ChannelRecord> {
  const row: { id: number; type: string } | undefined = await deps.knex('channels').where({ workspaceId: viewer.workspaceId, id }).first('id', 'type');
  if (!row) throw errors.notFound('Canal não encontrado.');
  if (row.type !== 'whatsapp') throw errors.field('workspacePlatformId', NOT_A_WHATSAPP_LINE);
  return loadChannel(deps.knex, viewer.workspaceId, row.id);
}

/**
 * GET /inbox/active-chat/templates/{channelId}: what the new-message dialog offers on a line: `cloud` (a
 * Cloud API line, whose first message must be a template) and, for Cloud lines, the approved templates.
 * Any agent who may start a conversation may read them (the settings' list needs level 6).
 */
export async function activeChatTemplates(deps: AppDeps, viewer: ConversationViewer, channelId: number): Promise<{ cloud: boolean; templates: WhatsappTemplate[] }> {
  const channel = await whatsappLine(deps, viewer, channelId);
  if (!isCloudConfig(channel.config)) return { cloud: false, templates: [] };
  return { cloud: true, templates: await lineTemplates(deps, channel) };
}

/**
 * The chosen template of a Cloud line with its variables (header's, then body's, in order) as a send needs
 * them; field errors on `template.name` / `template.variables[.i]` otherwise.
 */
async function resolveTemplate(deps: AppDeps, channel: ChannelRecord, input: NonNullable<ActiveChatReq['template']>) {
  const template = (await lineTemplates(deps, channel)).find((t) => t.name === input.name && t.language === input.language);
  if (!template) throw errors.field('template.name', TEMPLATE_NOT_FOUND);
  if (!template.supported) throw errors.field('template.name', template.unsupportedReason ?? 'Este modelo não pode ser enviado por aqui.');
  const slots = [...template.headerVariables.map((v) => ['header', v.name] as const), ...template.bodyVariables.map((v) => ['body', v.name] as const)];
  if (input.variables.length !== slots.length) {
    throw errors.field('template.variables', `Este modelo tem ${slots.length} ${slots.length === 1 ? 'variável' : 'variáveis'}; foram enviadas ${input.variables.length}.`);
  }
  const values: Required<TemplateValues> = { header: {}, body: {} };
  slots.forEach(([part, name], i) => {
    values[part][name] = input.variables[i]!;
  });
  const invalid = templateValueErrors(template, values);
  if (invalid.length) {
    throw errors.validation(invalid.map((e) => ({ key: `template.variables.${slots.findIndex(([part, name]) => `${part}.${name}` === e.key)}`, descriptions: e.descriptions })));
  }
  return { text: renderTemplate(template, values), payload: templatePayload(template, values) };
}

/**
 * POST /inbox/active-chat (SPEC §5 "New outbound message", docs/channels/whatsapp.md "New outbound message"):
 * a first message to a number on a WhatsApp line. A QR line asks its live socket whether the number is on
 * WhatsApp (`onWhatsApp`, through the worker holding the socket) and uses the JID WhatsApp answers, and
 * sends free text (`content`). A Cloud line has no such check in Meta's API, so the message is sent to the
 * digits and a number without WhatsApp comes back as a failed delivery; and since Meta refuses free text
 * outside the 24-hour window (131047), its first message must be an approved `template` with its variables,
 * stored with `extra_data.whatsapp.template` like a composer template. The contact and conversation are
 * reused when they exist; the message goes through the same delivery path as any agent message. Answers
 * the conversation id.
 */
export async function startActiveChat(deps: AppDeps, viewer: ConversationViewer, input: ActiveChatReq): Promise<{ id: number }> {
  const channel = await whatsappLine(deps, viewer, input.workspacePlatformId);
  const digits = input.phone;
  if (digits.length < MIN_DIGITS) throw errors.field('phone', INVALID_ACTIVE_PHONE);
  const cloud = isCloudConfig(channel.config);

  let externalId: string;
  let template: { text: string; payload: Record<string, unknown> } | undefined;
  if (cloud) {
    if (!input.template) throw errors.field('content', CLOUD_NEEDS_TEMPLATE);
    template = await resolveTemplate(deps, channel, input.template);
    // Cloud conversations are keyed by the wa_id Meta sends (digits).
    externalId = digits;
  } else {
    if (input.template || !input.content) throw errors.field('template', QR_HAS_NO_TEMPLATES);
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
  if (template) {
    await sendMessage(deps, viewer, { id: conversationId, content: [{ insert: `${template.text}\n` }], type: MessageType.COMMON, replyTo: null }, undefined, {
      whatsapp: { template: template.payload },
    });
  } else {
    await sendMessage(deps, viewer, { id: conversationId, content: input.content!, type: MessageType.COMMON });
  }
  return { id: conversationId };
}
