import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { authenticateViewer, viewerOf } from '../auth/viewer';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { AccessLevel } from '../policy/levels';
import { findVisibleConversation } from '../conversations/queries';
import { presentConversations } from '../conversations/presenters';
import {
  ActiveChatSchema,
  AssignmentSchema,
  ComposingSchema,
  ConversationStatusSchema,
  ConversationTagsSchema,
  FIXED_SEGMENTS,
  InboxListQuerySchema,
  InitBotSchema,
  MessageSendSchema,
  MessagesQuerySchema,
  SearchQuerySchema,
  TemplateSendSchema,
  TransferGroupSchema,
  TransferOperatorSchema,
} from './schema';
import { listConversations } from './listConversations';
import { countConversations } from './countConversations';
import { readConversation } from './readConversation';
import { listMessages } from './listMessages';
import { searchInbox } from './search';
import { sendMessage } from './sendMessage';
import { deleteMessage } from './deleteMessage';
import { setConversationStatus } from './setConversationStatus';
import { setFavorite } from './setFavorite';
import { setConversationTags } from './setConversationTags';
import { assignToSelf, transferToGroup, transferToOperator } from './transferConversation';
import { initBot } from './initBot';
import { sendComposing } from './sendComposing';
import { activeChatTemplates, startActiveChat } from './activeChat';
import { retryMessage } from './retryMessage';
import { conversationMetaWindow, conversationWhatsappTemplates, conversationWhatsappWindow, sendWhatsappTemplate } from './channelComposer';

/** The inbox calls of docs/api/inbox.md ("Inbox calls"); every conversation goes through the visibility policy. */
export function inboxRouter(deps: AppDeps) {
  const router = new Router();
  const guard = authenticateViewer(deps);
  const [auth, withViewer] = guard;

  router.get('/inbox', ...guard, async (ctx) => {
    const page = await listConversations(deps, viewerOf(ctx), parseQuery(ctx, InboxListQuerySchema));
    ctx.body = page;
  });

  // One search over every conversation the viewer may see (docs/search.md).
  router.get('/inbox/search', ...guard, async (ctx) => {
    ctx.body = await searchInbox(deps, viewerOf(ctx), parseQuery(ctx, SearchQuerySchema));
  });

  router.get('/inbox/conversations/:id', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    const row = await findVisibleConversation(deps.knex, viewer, parseId(ctx.params.id));
    // Admins get the link to the bot session's workflow in the Temporal Web UI (docs/bots.md).
    const temporalUi = viewer.accessLevel >= AccessLevel.MASTER ? { baseUrl: deps.config.temporalUiUrl, namespace: deps.config.temporalNamespace } : undefined;
    const [data] = await presentConversations(deps.knex, [row], { temporalUi });
    ctx.body = { data };
  });

  router.post('/inbox/conversations/:id/read', ...guard, async (ctx) => {
    ctx.body = { data: await readConversation(deps, viewerOf(ctx), parseId(ctx.params.id)) };
  });

  router.post('/inbox/counter', ...guard, async (ctx) => {
    ctx.body = { data: await countConversations(deps, viewerOf(ctx)) };
  });

  router.get('/inbox/messages', ...guard, async (ctx) => {
    ctx.body = await listMessages(deps, viewerOf(ctx), parseQuery(ctx, MessagesQuerySchema));
  });

  router.post('/inbox/messages', ...guard, async (ctx) => {
    const input = parseBody(ctx, MessageSendSchema);
    ctx.status = 201;
    ctx.body = { data: await sendMessage(deps, viewerOf(ctx), input) };
  });

  // A failed outbound message, sent again (docs/outbound.md).
  router.post('/inbox/messages/:messageId/retry', ...guard, async (ctx) => {
    ctx.body = { data: await retryMessage(deps, viewerOf(ctx), parseId(ctx.params.messageId)) };
  });

  router.delete('/inbox/messages/:messageId', ...guard, async (ctx) => {
    ctx.body = { data: await deleteMessage(deps, viewerOf(ctx), parseId(ctx.params.messageId)) };
  });

  router.post('/inbox/favorites/:id', ...guard, async (ctx) => {
    ctx.body = { data: await setFavorite(deps, viewerOf(ctx), parseId(ctx.params.id), true) };
  });

  router.delete('/inbox/favorites/:id', ...guard, async (ctx) => {
    ctx.body = { data: await setFavorite(deps, viewerOf(ctx), parseId(ctx.params.id), false) };
  });

  router.put('/inbox/tag', ...guard, async (ctx) => {
    ctx.body = { data: await setConversationTags(deps, viewerOf(ctx), parseBody(ctx, ConversationTagsSchema)) };
  });

  router.post('/inbox/assignment', ...guard, async (ctx) => {
    const input = parseBody(ctx, AssignmentSchema);
    ctx.body = { data: await assignToSelf(deps, viewerOf(ctx), input.id) };
  });

  router.get('/inbox/active-chat/templates/:id', ...guard, async (ctx) => {
    ctx.body = { data: await activeChatTemplates(deps, viewerOf(ctx), parseId(ctx.params.id)) };
  });

  router.post('/inbox/active-chat', ...guard, async (ctx) => {
    ctx.body = { data: await startActiveChat(deps, viewerOf(ctx), parseBody(ctx, ActiveChatSchema)) };
    ctx.status = 201;
  });

  // The provider's reply window and WhatsApp templates of a conversation, for the composer (./channelComposer.ts).
  router.get('/inbox/whatsapp-window/:id', ...guard, async (ctx) => {
    ctx.body = { data: await conversationWhatsappWindow(deps, viewerOf(ctx), parseId(ctx.params.id)) };
  });

  router.get('/inbox/meta-window/:id', ...guard, async (ctx) => {
    ctx.body = { data: await conversationMetaWindow(deps, viewerOf(ctx), parseId(ctx.params.id)) };
  });

  router.get('/inbox/whatsapp-templates/:id', ...guard, async (ctx) => {
    ctx.body = { data: await conversationWhatsappTemplates(deps, viewerOf(ctx), parseId(ctx.params.id)) };
  });

  router.post('/inbox/whatsapp-template', ...guard, async (ctx) => {
    const input = parseBody(ctx, TemplateSendSchema);
    ctx.status = 201;
    ctx.body = { data: await sendWhatsappTemplate(deps, viewerOf(ctx), input) };
  });

  router.post('/calls/transfer-operator', ...guard, async (ctx) => {
    const input = parseBody(ctx, TransferOperatorSchema);
    ctx.body = { data: await transferToOperator(deps, viewerOf(ctx), input.customerPlatformId, input.operatorId) };
  });

  router.post('/calls/transfer-group', ...guard, async (ctx) => {
    const input = parseBody(ctx, TransferGroupSchema);
    ctx.body = { data: await transferToGroup(deps, viewerOf(ctx), input.customerPlatformId, input.groupId) };
  });

  router.post('/calls/init-bot', ...guard, async (ctx) => {
    ctx.body = { data: await initBot(deps, viewerOf(ctx), parseBody(ctx, InitBotSchema)) };
  });

  router.post('/integrations/composing', ...guard, async (ctx) => {
    const input = parseBody(ctx, ComposingSchema);
    await sendComposing(deps, viewerOf(ctx), input.customerPlatformId);
    ctx.status = 204;
  });

  // Last: /inbox/{segment}/{id} would otherwise shadow the two-level paths above and other areas' routes.
  router.post('/inbox/:segment/:id', async (ctx, next) => {
    const { segment, id } = ctx.params;
    const known = (FIXED_SEGMENTS as readonly string[]).includes(segment) || segment === 'new' || /^[1-9][0-9]{0,9}$/.test(segment);
    if (!known || !/^[1-9][0-9]{0,14}$/.test(id)) return next();
    await auth(ctx, () => withViewer(ctx, async () => {
      const input = parseBody(ctx, ConversationStatusSchema);
      ctx.body = { data: await setConversationStatus(deps, viewerOf(ctx), parseId(id), input) };
    }));
  });

  return router;
}
