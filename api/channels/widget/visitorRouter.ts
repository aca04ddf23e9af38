import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { bearerToken } from '../../auth/authenticate';
import { clientIp } from '../../http/clientIp';
import { errors } from '../../http/errors';
import { parseBody, parseQuery } from '../../http/validate';
import { presentWidgetMessage } from './presentWidgetMessage';
import { widgetFileUrl } from './fileUrl';
import { WidgetConfigQuerySchema, WidgetMessageSchema, WidgetMessagesQuerySchema } from './visitorSchema';
import { findWidgetChannel, listVisitorMessages } from './visitorQueries';
import { requireVisitor, visitorOf } from './visitorAuth';
import { limitRead, limitVisitor } from './limits';
import { sendVisitorMessage, textContent } from './sendVisitorMessage';
import { sendVisitorFile } from './sendVisitorFile';
import { touchVisitor } from '../../auth/visitorSessions';
import { createStorage } from '../../storage/storage';
import type { Context, Next } from 'koa';
import { requireAllowedSite } from './siteCheck';
import { widgetSettingsOf } from './widgetSettings';
import { widgetLiveFacts } from './publicFacts';
import { CsatAnswerSchema } from '../../csat/schema';
import { answerFromWidget } from '../../csat/widgetAnswer';

/** The 404 of an unknown identifier; widget.js shows its own text for it (ui/widget/texts.ts). */
export const WIDGET_NOT_FOUND = 'Widget não encontrado.';

/**
 * The public widget API (docs/api/inbox.md Widget, docs/widget.md): no operator auth. Visitors are
 * known by their session token (Authorization: Bearer), which their first message creates. CORS for any
 * origin is added by widgetCors (api/channels/widget/cors.ts).
 */
export function widgetRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/v1/widget' });
  const session = requireVisitor(deps);
  // A visitor's later calls come from the widget's allowed sites too (the list is read with the token).
  const visitor = async (ctx: Context, next: Next) =>
    session(ctx, async () => {
      requireAllowedSite(ctx, visitorOf(ctx).allowedSites);
      await next();
    });
  const storage = createStorage(deps.config);

  router.get('/config', async (ctx) => {
    await limitRead(deps, ctx, 'config');
    const { identifier } = parseQuery(ctx, WidgetConfigQuerySchema);
    const channel = await findWidgetChannel(deps.knex, identifier);
    if (!channel) throw errors.notFound(WIDGET_NOT_FOUND);
    const settings = widgetSettingsOf(channel.config);
    requireAllowedSite(ctx, settings.allowedSites);
    const facts = await widgetLiveFacts(deps.knex, channel, settings);
    ctx.body = {
      data: {
        identifier: channel.identifier,
        company: channel.company,
        color: channel.avatar,
        greeting: settings.greeting,
        tagline: settings.tagline,
        logo: settings.logo,
        position: settings.position,
        preChat: settings.preChat,
        allowedSites: settings.allowedSites,
        responseMinutes: facts.responseMinutes,
        outOfHours: facts.outOfHours,
        outOfHoursMessage: facts.outOfHours ? settings.outOfHoursMessage : null,
      },
    };
  });

  router.post('/messages', async (ctx) => {
    const input = parseBody(ctx, WidgetMessageSchema);
    const result = await sendVisitorMessage(
      deps,
      { identifier: input.identifier, sender: input.sender, email: input.email, phone: input.phone, content: textContent(input.content), clientMessageId: input.clientMessageId, challenge: input.challenge },
      { token: bearerToken(ctx) ?? input.token, ip: clientIp(ctx, deps.config.trustProxy), checkSite: (sites) => requireAllowedSite(ctx, sites) },
    );
    ctx.status = 201;
    ctx.body = { data: result };
  });

  router.get('/messages', visitor, async (ctx) => {
    await limitRead(deps, ctx, 'read');
    const session = visitorOf(ctx);
    const page = parseQuery(ctx, WidgetMessagesQuerySchema);
    const rows = await listVisitorMessages(deps.knex, session, { limit: page.limit ?? 50, before: page.before, after: page.after });
    await touchVisitor(deps.knex, session.channelId, session.visitorId);
    ctx.body = { data: rows.map((m) => presentWidgetMessage(m, (key, fileName) => widgetFileUrl(deps, key, fileName))) };
  });

  // The visitor's rating of their last resolved call (docs/csat.md): the buttons under the question.
  // The body is read before the session, as POST /messages does: a malformed answer is a 400 either way.
  router.post('/csat', async (ctx) => {
    const input = parseBody(ctx, CsatAnswerSchema);
    await visitor(ctx, async () => {
      await limitVisitor(deps, 'message', visitorOf(ctx).visitorId);
      ctx.body = { data: await answerFromWidget(deps, visitorOf(ctx), input) };
    });
  });

  router.post('/files', visitor, async (ctx) => {
    ctx.status = 201;
    ctx.body = { data: await sendVisitorFile(deps, storage, ctx, visitorOf(ctx)) };
  });

  return router;
}
