import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation, loadChannel } from '../conversations/queries';
import { MessageType } from '../models/Message';
import { isMetaChannel, metaWindow, type MetaWindow } from '../channels/meta/window';
import { cloudLineOf } from '../channels/whatsapp/cloudLine';
import { lineTemplates, renderTemplate, templatePayload, templateValueErrors, type WhatsappTemplate } from '../channels/whatsapp/templates';
import { whatsappWindow, type WhatsappWindow } from '../channels/whatsapp/window';
import type { TemplateSendReq } from './schema';
import { sendMessage } from './sendMessage';

/**
 * What the composer asks of a conversation's channel (any agent who sees the conversation): the provider's
 * reply window (WhatsApp Cloud's 24 h, docs/channels/whatsapp.md; Messenger/Instagram, docs/channels/meta.md
 * "Window"), a WhatsApp Cloud line's approved templates, and one of them sent through the usual delivery
 * path (docs/channels/whatsapp.md "Templates outside the 24-hour window").
 */
async function conversationChannel(deps: AppDeps, viewer: ConversationViewer, id: number) {
  const conversation = await findVisibleConversation(deps.knex, viewer, id);
  const channel = await loadChannel(deps.knex, viewer.workspaceId, conversation.channelId);
  return { conversation, channel };
}

/** GET /inbox/whatsapp-window/{id}. */
export async function conversationWhatsappWindow(deps: AppDeps, viewer: ConversationViewer, id: number): Promise<WhatsappWindow> {
  const { conversation, channel } = await conversationChannel(deps, viewer, id);
  return whatsappWindow(deps, conversation.id, channel);
}

/** GET /inbox/meta-window/{id}: 400 for a conversation of another channel. */
export async function conversationMetaWindow(deps: AppDeps, viewer: ConversationViewer, id: number): Promise<MetaWindow> {
  const { conversation, channel } = await conversationChannel(deps, viewer, id);
  if (!isMetaChannel(channel)) throw errors.badRequest('Esta conversa não é do Facebook nem do Instagram.');
  return metaWindow(deps, conversation.id, channel);
}

/** GET /inbox/whatsapp-templates/{id}. */
export async function conversationWhatsappTemplates(deps: AppDeps, viewer: ConversationViewer, id: number): Promise<WhatsappTemplate[]> {
  const { channel } = await conversationChannel(deps, viewer, id);
  return lineTemplates(deps, channel);
}

/** POST /inbox/whatsapp-template: an approved template, with its variables, sent into a conversation. */
export async function sendWhatsappTemplate(deps: AppDeps, viewer: ConversationViewer, input: TemplateSendReq) {
  const { conversation, channel } = await conversationChannel(deps, viewer, input.id);
  if (!cloudLineOf(deps.config, channel)) throw errors.field('name', 'Modelos de mensagem só existem em linhas da API oficial do WhatsApp.');
  const template = (await lineTemplates(deps, channel)).find((t) => t.name === input.name && t.language === input.language);
  if (!template) throw errors.field('name', 'Modelo não encontrado ou não aprovado nesta linha.');
  if (!template.supported) throw errors.field('name', template.unsupportedReason ?? 'Este modelo não pode ser enviado por aqui.');
  const invalid = templateValueErrors(template, input);
  if (invalid.length) throw errors.validation(invalid);
  const text = renderTemplate(template, input);
  return sendMessage(deps, viewer, { id: conversation.id, content: [{ insert: `${text}\n` }], type: MessageType.COMMON, replyTo: null }, undefined, {
    whatsapp: { template: templatePayload(template, input) },
  });
}
