import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { authorize } from '../policy/policy';
import { loadViewer } from '../policy/conversations';
import { ReportQuerySchema } from '../reports/schema';
import { resolveScope } from '../reports/filters';
import { CsatDrillSchema, CsatSettingsSchema } from './schema';

/** The drill-down's query: the reports' filters and the rating, every failing field reported at once. */
const CsatCallsQuerySchema = ReportQuerySchema.extend(CsatDrillSchema.shape);
import { readCsatSettings, saveCsatSettings } from './settings';
import { CSAT_DRILL_MAX, csatCalls, csatReport } from './reports';

function pageOf(limitRaw: unknown, offsetRaw: unknown): { limit: number; offset: number } {
  const limit = limitRaw === undefined ? 20 : Number(limitRaw);
  const offset = offsetRaw === undefined ? 0 : Number(offsetRaw);
  const fields = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > CSAT_DRILL_MAX) fields.push({ key: 'limit', descriptions: [`Use um número de 1 a ${CSAT_DRILL_MAX}.`] });
  if (!Number.isInteger(offset) || offset < 0) fields.push({ key: 'offset', descriptions: ['Use um número a partir de 0.'] });
  if (fields.length) throw errors.validation(fields);
  return { limit, offset };
}

/**
 * CSAT after 'Resolver' (docs/csat.md): a channel's survey settings (level 6+, like every channel setting)
 * and the satisfaction report with its drill-down (any level; below 6 the caller's own calls, as the other
 * reports). The widget visitor's answer is a widget route (api/channels/widget/visitorRouter.ts).
 */
export function csatRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/csat/channels/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    ctx.body = { data: await readCsatSettings(deps, actor, parseId(ctx.params.id)) };
  });

  router.put('/csat/channels/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, CsatSettingsSchema);
    ctx.body = { data: await saveCsatSettings(deps, actor, id, input) };
  });

  router.get('/report/csat', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'reports.view');
    const scope = await resolveScope(deps.knex, actor, parseQuery(ctx, ReportQuerySchema));
    ctx.body = { data: await csatReport(deps.knex, scope) };
  });

  router.get('/report/csat/calls', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'reports.view');
    const q = parseQuery(ctx, CsatCallsQuerySchema);
    const scope = await resolveScope(deps.knex, actor, q);
    const { limit, offset } = pageOf(q.limit, q.offset);
    ctx.body = await csatCalls(deps.knex, scope, await loadViewer(deps.knex, actor), q.rating, limit, offset);
  });

  return router;
}
