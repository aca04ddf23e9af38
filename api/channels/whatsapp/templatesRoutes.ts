import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseId } from '../../http/validate';
import { authorize } from '../../policy/policy';
import { loadChannel } from '../../conversations/queries';
import { findChannel } from '../queries';
import { lineTemplates } from './templates';

/**
 * Message templates of WhatsApp Cloud lines (docs/channels/whatsapp.md "Templates outside the 24-hour
 * window"): the line's approved templates (level 6+, campaigns and settings), a WhatsApp extra route. A
 * conversation's window and templates and sending one are inbox calls (api/inbox/channelComposer.ts).
 */
export function templatesRoutes(router: Router, deps: AppDeps): void {
  router.get('/whatsapp/:id/templates', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const row = await findChannel(actor, 'whatsapp', parseId(ctx.params.id));
    if (!row) throw errors.notFound();
    const channel = await loadChannel(deps.knex, actor.workspaceId, row.id);
    ctx.body = { data: await lineTemplates(deps, channel) };
  });
}
