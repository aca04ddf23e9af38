import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../http/authenticate';
import { errors } from '../../http/errors';
import { parseBody, parseId } from '../../http/validate';
import { authorize } from '../../policy/policy';
import { loadViewer, type ConversationViewer } from '../../policy/conversations';
import { findVisibleConversation, loadChannel } from '../../conversations/queries';
import { findChannel } from '../../integrations/queries';
import { sendMessage } from '../../inbox/sendMessage';
import { MessageType } from '../../models/Message';
import type { ChannelRecord } from '../adapter';
import { cloudLineOf } from './cloudLine';
import { lineTemplates, renderTemplate, templatePayload, templateValueErrors } from './templates';

/** WhatsApp's customer-service window: free text only within 24 h of the customer's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface WhatsappWindow {
  /** A Cloud API line: outside the window only approved templates go out. */
  cloud: boolean;
  open: boolean;
  lastCustomerMessageAt: string | null;
  closesAt: string | null;
}

const variableValues = z
  .record(z.string().max(64), z.string({ error: 'Informe o valor da variável.' }).max(1024, 'No máximo 1024 caracteres.'), { error: 'Variáveis inválidas.' })
  .optional()
  .refine((v) => !v || Object.keys(v).length <= 100, 'Variáveis demais.');

/** POST /inbox/whatsapp-template: an approved template, with its variables, sent into a conversation. */
export const TemplateSendSchema = z.object({
  id: z.number({ error: 'Informe a conversa.' }).int().positive('Informe a conversa.'),
  name: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(512),
  language: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(20),
  header: variableValues,
  body: variableValues,
});

/** The window of a conversation: open while the customer's last message is less than 24 h old. */
export async function whatsappWindow(deps: Pick<AppDeps, 'knex' | 'config'>, conversationId: number, channel: Pick<ChannelRecord, 'config' | 'type'>, now = Date.now()): Promise<WhatsappWindow> {
  const cloud = channel.type === 'whatsapp' && !!cloudLineOf(deps.config, channel);
  const last = (await deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).orderBy('createdAt', 'desc').first('created_at')) as { createdAt: Date } | undefined;
  const lastAt = last ? new Date(last.createdAt).getTime() : null;
  const open = !cloud || (lastAt !== null && now - lastAt < WINDOW_MS);
  return {
    cloud,
    open,
    lastCustomerMessageAt: lastAt === null ? null : new Date(lastAt).toISOString(),
    closesAt: lastAt === null ? null : new Date(lastAt + WINDOW_MS).toISOString(),
  };
}

async function conversationChannel(deps: AppDeps, viewer: ConversationViewer, id: number) {
  const conversation = await findVisibleConversation(deps.knex, viewer, id);
  const channel = await loadChannel(deps.knex, viewer.workspaceId, conversation.channelId);
  return { conversation, channel };
}

/**
 * Message templates of WhatsApp Cloud lines (docs/channels/whatsapp.md "Templates outside the 24-hour
 * window"): the line's approved templates (level 6+, campaigns and settings), a conversation's window and
 * templates (any agent who sees the conversation), and sending one through the usual delivery path.
 */
export function whatsappTemplatesRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/integrations/whatsapp/:id/templates', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const row = await findChannel(actor, 'whatsapp', parseId(ctx.params.id));
    if (!row) throw errors.notFound();
    const channel = await loadChannel(deps.knex, actor.workspaceId, row.id);
    ctx.body = { data: await lineTemplates(deps, channel) };
  });

  router.get('/inbox/whatsapp-window/:id', auth, async (ctx) => {
    const viewer = await loadViewer(deps.knex, actorOf(ctx));
    const { conversation, channel } = await conversationChannel(deps, viewer, parseId(ctx.params.id));
    ctx.body = { data: await whatsappWindow(deps, conversation.id, channel) };
  });

  router.get('/inbox/whatsapp-templates/:id', auth, async (ctx) => {
    const viewer = await loadViewer(deps.knex, actorOf(ctx));
    const { channel } = await conversationChannel(deps, viewer, parseId(ctx.params.id));
    ctx.body = { data: await lineTemplates(deps, channel) };
  });

  router.post('/inbox/whatsapp-template', auth, async (ctx) => {
    const viewer = await loadViewer(deps.knex, actorOf(ctx));
    const input = parseBody(ctx, TemplateSendSchema);
    const { conversation, channel } = await conversationChannel(deps, viewer, input.id);
    if (!cloudLineOf(deps.config, channel)) throw errors.field('name', 'Modelos de mensagem só existem em linhas da API oficial do WhatsApp.');
    const template = (await lineTemplates(deps, channel)).find((t) => t.name === input.name && t.language === input.language);
    if (!template) throw errors.field('name', 'Modelo não encontrado ou não aprovado nesta linha.');
    if (!template.supported) throw errors.field('name', template.unsupportedReason ?? 'Este modelo não pode ser enviado por aqui.');
    const invalid = templateValueErrors(template, input);
    if (invalid.length) throw errors.validation(invalid);
    const text = renderTemplate(template, input);
    const view = await sendMessage(deps, viewer, { id: conversation.id, content: [{ insert: `${text}\n` }], type: MessageType.COMMON, replyTo: null }, undefined, {
      whatsapp: { template: templatePayload(template, input) },
    });
    ctx.status = 201;
    ctx.body = { data: view };
  });
  return router;
}
