import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseBody, parseId } from '../../http/validate';
import { deleteChannel } from '../deleteChannel';
import { findChannel } from '../queries';
import { findVisibleConversation } from '../../conversations/queries';
import { MessageType } from '../../models/Message';
import { loadViewer } from '../../policy/conversations';
import { authorize } from '../../policy/policy';
import { createEmailChannel } from './createEmailChannel';
import { HTML_VIEW_CSP, htmlViewDocument, signedHtmlViewUrl, verifyHtmlView } from './htmlView';
import { presentEmailChannel } from './presenters';
import { EmailChannelSchema, EmailChannelUpdateSchema } from './schema';
import { updateEmailChannel } from './updateEmailChannel';

/** The HTML of an e-mail message of this workspace, if it has one. */
async function emailHtml(deps: AppDeps, workspaceId: number | undefined, messageId: number) {
  const q = deps.knex('messages').where({ id: messageId, type: MessageType.EMAIL, isDeleted: false });
  if (workspaceId !== undefined) void q.where({ workspaceId });
  const row: { customerPlatformId: number; extraData: Record<string, unknown> | null } | undefined = await q.first('customer_platform_id', 'extra_data');
  const html = row?.extraData?.html;
  return row && typeof html === 'string' ? { conversationId: row.customerPlatformId, html } : undefined;
}

/**
 * The e-mail channel (docs/channels/email.md): POST /integrations/mail makes one with its generated
 * forwarding address; GET/PUT/DELETE /integrations/mail/{id} show, set up and remove it; the HTML view
 * lets an agent see one e-mail with its remote images.
 */
export function emailIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  router.post('/integrations/mail', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, EmailChannelSchema);
    ctx.status = 201;
    ctx.body = { data: presentEmailChannel(await createEmailChannel(deps, actor, input), deps.config) };
  });

  router.get('/integrations/mail/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'email', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    ctx.body = { data: presentEmailChannel(channel, deps.config) };
  });

  router.put('/integrations/mail/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, EmailChannelUpdateSchema);
    ctx.body = { data: presentEmailChannel(await updateEmailChannel(deps, actor, id, input), deps.config) };
  });

  router.delete('/integrations/mail/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    ctx.body = { data: presentEmailChannel(await deleteChannel(deps, actor, 'email', parseId(ctx.params.id)), deps.config) };
  });

  // "Mostrar imagens": any agent who can see the conversation gets a short-lived link to the e-mail's HTML.
  router.post('/integrations/mail/messages/:messageId/html-view', auth, async (ctx) => {
    const actor = actorOf(ctx);
    const messageId = parseId(ctx.params.messageId);
    const found = await emailHtml(deps, actor.workspaceId, messageId);
    if (!found) throw errors.notFound();
    await findVisibleConversation(deps.knex, await loadViewer(deps.knex, actor), found.conversationId);
    ctx.body = { data: { url: signedHtmlViewUrl(deps.config, messageId) } };
  });

  // The signed link is the credential (a frame sends no token); any fault in it is a 404.
  router.get('/integrations/mail/html/:messageId', async (ctx) => {
    const messageId = Number(ctx.params.messageId);
    if (!Number.isSafeInteger(messageId) || messageId <= 0 || !verifyHtmlView(deps.config, messageId, ctx.query.exp, ctx.query.sig)) throw errors.notFound();
    const found = await emailHtml(deps, undefined, messageId);
    if (!found) throw errors.notFound();
    ctx.set('Content-Security-Policy', HTML_VIEW_CSP);
    // The link's signature must not travel to the image hosts.
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = htmlViewDocument(found.html);
  });
  return router;
}
