import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseId } from '../../http/validate';
import { findVisibleConversation } from '../../conversations/queries';
import { MessageType } from '../../models/Message';
import { loadViewer } from '../../policy/conversations';
import { HTML_VIEW_CSP, htmlViewDocument, signedHtmlViewUrl, verifyHtmlView } from './htmlView';

/** The HTML of an e-mail message of this workspace, if it has one. */
async function emailHtml(deps: AppDeps, workspaceId: number | undefined, messageId: number) {
  const q = deps.knex('messages').where({ id: messageId, type: MessageType.EMAIL, isDeleted: false });
  if (workspaceId !== undefined) void q.where({ workspaceId });
  const row: { customerPlatformId: number; extraData: Record<string, unknown> | null } | undefined = await q.first('customer_platform_id', 'extra_data');
  const html = row?.extraData?.html;
  return row && typeof html === 'string' ? { conversationId: row.customerPlatformId, html } : undefined;
}

/**
 * The e-mail channel's extra routes (docs/channels/email.md "Imagens remotas"): the HTML view lets an
 * agent see one e-mail with its remote images.
 */
export function htmlViewRoutes(router: Router, deps: AppDeps): void {
  const auth = authenticate(deps);

  // "Mostrar imagens": any agent who can see the conversation gets a short-lived link to the e-mail's HTML.
  router.post('/mail/messages/:messageId/html-view', auth, async (ctx) => {
    const actor = actorOf(ctx);
    const messageId = parseId(ctx.params.messageId);
    const found = await emailHtml(deps, actor.workspaceId, messageId);
    if (!found) throw errors.notFound();
    await findVisibleConversation(deps.knex, await loadViewer(deps.knex, actor), found.conversationId);
    ctx.body = { data: { url: signedHtmlViewUrl(deps.config, messageId) } };
  });

  // The signed link is the credential (a frame sends no token); any fault in it is a 404.
  router.get('/mail/html/:messageId', async (ctx) => {
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
}
