import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { AppDeps } from './deps';
import { errorMiddleware } from './http/errorMiddleware';
import { errors } from './http/errors';
import { requestLog } from './http/requestLog';
import { securityHeaders } from './http/securityHeaders';
import { cacheRouteMatches } from './http/routeMatchCache';
import { healthRouter } from './health/router';
import { tagsRouter } from './tags/router';
import { authRouter } from './account/router';
import { workspacesRouter } from './workspaces/router';
import { operatorsRouter } from './operators/router';
import { mqttRouter } from './realtime/router';
import { serveUi } from './http/serveUi';
import { integrationsRouter } from './channels/integrationsRouter';
import './channels/index';
import { widgetRouter } from './channels/widget/visitorRouter';
import { widgetCors } from './channels/widget/cors';
import { serveWidgetScript } from './channels/widget/serveWidgetScript';
import { shedWidgetMessages } from './channels/widget/shed';
import { inboxRouter } from './inbox/router';
import { segmentsRouter } from './segments/router';
import { quickPhrasesRouter } from './quickPhrases/router';
import { assetsRouter } from './assets/router';
import { customersRouter } from './customers/router';
import { contactsRouter } from './contacts/router';
import { groupsRouter } from './groups/router';
import { webhooksRouter } from './webhooks/router';
import { businessHoursRouter } from './businessHours/router';
import { assignmentRulesRouter, presenceRouter } from './assignment/router';
import { pluginsRouter } from './plugins/router';
import { apiTokensRouter } from './apiTokens/router';
import { avatarsRouter } from './avatars/router';
import { campaignsRouter } from './campaigns/router';
import { contractsRouter } from './contracts/router';
import { botsRouter } from './bots/router';
import { hooksRouter } from './channels/hooks/router';
import { asaasWebhookRouter } from './billing/webhook';
import { reportsRouter } from './reports/router';
import { pushRouter } from './push/router';
import { billingRouter } from './billing/router';
import { twoFactorRouter } from './twoFactor/router';
import { schedulesRouter } from './schedules/router';
import { teamChatRouter } from './teamChat/router';
import { kanbanRouter } from './kanban/router';
import { funnelsRouter } from './kanban/funnelsRouter';
import { csatRouter } from './csat/router';

/** Builds the Koa app without listening, so tests drive it directly (koajs/examples habit). */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy > 0, maxIpsCount: deps.config.trustProxy });
  app.use(requestLog(deps.logger));
  app.use(securityHeaders(deps.config));
  app.use(errorMiddleware(deps.logger));
  app.use(widgetCors);
  app.use(shedWidgetMessages(deps));
  const parseJson = bodyParser({
    enableTypes: ['json'],
    jsonLimit: '1mb',
    onError: (err) => {
      throw Object.assign(err, { status: (err as { status?: number }).status ?? 400, type: 'entity.parse.failed' });
    },
  });
  // Webhooks (the channels' and the payment provider's) are verified over their raw bytes before anything parses them.
  app.use((ctx, next) => (ctx.path.startsWith('/api/hooks/') ? next() : parseJson(ctx, next)));

  const api = new Router({ prefix: '/api' });
  for (const r of [healthRouter(deps), authRouter(deps), workspacesRouter(deps), operatorsRouter(deps), tagsRouter(deps), groupsRouter(deps), mqttRouter(deps)]) {
    api.use(r.routes());
  }
  api.use(segmentsRouter(deps).routes());
  api.use(quickPhrasesRouter(deps).routes());
  api.use(assetsRouter(deps).routes());
  api.use(customersRouter(deps).routes());
  api.use(contactsRouter(deps).routes());
  api.use(pluginsRouter(deps).routes());
  api.use(apiTokensRouter(deps).routes());
  api.use(avatarsRouter(deps).routes());
  api.use(businessHoursRouter(deps).routes());
  api.use(assignmentRulesRouter(deps).routes());
  api.use(presenceRouter(deps).routes());
  api.use(inboxRouter(deps).routes());
  api.use(integrationsRouter(deps).routes());
  // Before the channels' hooks: /api/hooks/asaas is the payment provider's, not a channel type.
  api.use(asaasWebhookRouter(deps).routes());
  api.use(hooksRouter(deps).routes());
  api.use(widgetRouter(deps).routes());
  api.use(webhooksRouter(deps).routes());
  api.use(botsRouter(deps).routes());
  api.use(campaignsRouter(deps).routes());
  api.use(contractsRouter(deps).routes());
  api.use(reportsRouter(deps).routes());
  api.use(pushRouter(deps).routes());
  api.use(billingRouter(deps).routes());
  api.use(twoFactorRouter(deps).routes());
  api.use(schedulesRouter(deps).routes());
  api.use(teamChatRouter(deps).routes());
  api.use(kanbanRouter(deps).routes());
  api.use(funnelsRouter(deps).routes());
  api.use(csatRouter(deps).routes());
  app.use(cacheRouteMatches(api).routes());
  // Thrown, so a wrong method gets the error shape of DESIGN.md §3 like every other refusal.
  app.use(api.allowedMethods({ throw: true, methodNotAllowed: () => errors.badRequest('Método não permitido.'), notImplemented: () => errors.badRequest('Método não permitido.') }));
  app.use(serveWidgetScript());
  app.use(serveUi(deps.config));
  // Whatever nothing above answered (a POST outside /api, a missing asset) is a 404 in the error shape.
  app.use(() => {
    throw errors.notFound();
  });
  // Errors already answered by errorMiddleware never reach here; what does is a client that went away
  // mid-response (navigation while a UI file streams), which is not worth a stack trace.
  app.on('error', (err: { code?: string }, ctx?: { state?: { requestId?: string } }) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    deps.logger.error({ err, requestId: ctx?.state?.requestId }, 'unhandled app error');
  });
  return app;
}
