import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseQuery } from '../http/validate';
import { errors } from '../http/errors';
import { authorize } from '../policy/policy';
import { loadViewer } from '../policy/conversations';
import { ReportQuerySchema } from './schema';
import { resolveScope } from './filters';
import { agentsReport, conversationsReport } from './figures';
import { dashboard } from './dashboard';
import { DRILL_PAGE_MAX, drillDown } from './drilldown';
import { customersReport, tagsReport } from './lists';

function pageOf(limitRaw: string | undefined, offsetRaw: string | undefined, max: number): { limit: number; offset: number } {
  const limit = limitRaw === undefined ? 20 : Number(limitRaw);
  const offset = offsetRaw === undefined ? 0 : Number(offsetRaw);
  const fields = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > max) fields.push({ key: 'limit', descriptions: [`Use um número de 1 a ${max}.`] });
  if (!Number.isInteger(offset) || offset < 0) fields.push({ key: 'offset', descriptions: ['Use um número a partir de 0.'] });
  if (fields.length) throw errors.validation(fields);
  return { limit, offset };
}

/**
 * Reports (SPEC §7, docs/reports.md): GET /report, /report/calls (drill-down), /report/tags, /report/customer,
 * /dashboard, /dashboard/agents. Every level may call them (reports.view); below level 6 the figures are the
 * caller's own. Every query is scoped to the token's workspace; foreign filter ids are 400s.
 */
export function reportsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  const scopeOf = async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, 'reports.view');
    const q = parseQuery(ctx, ReportQuerySchema);
    return { actor, q, scope: await resolveScope(deps.knex, actor, q) };
  };

  router.get('/report', auth, async (ctx) => {
    const { scope } = await scopeOf(ctx);
    ctx.body = { data: await conversationsReport(deps.knex, scope) };
  });

  router.get('/report/calls', auth, async (ctx) => {
    const { actor, q, scope } = await scopeOf(ctx);
    if (!q.metric) throw errors.field('metric', 'Indicador obrigatório (new, resolved, tme, tmr ou tma).');
    const { limit, offset } = pageOf(q.limit, q.offset, DRILL_PAGE_MAX);
    ctx.body = await drillDown(deps.knex, scope, await loadViewer(deps.knex, actor), q.metric, limit, offset);
  });

  router.get('/report/tags', auth, async (ctx) => {
    const { actor, scope } = await scopeOf(ctx);
    ctx.body = { data: await tagsReport(deps.knex, scope, actor.operatorId) };
  });

  router.get('/report/customer', auth, async (ctx) => {
    const { actor, q, scope } = await scopeOf(ctx);
    const { limit, offset } = pageOf(q.limit, q.offset, 9999);
    ctx.body = await customersReport(deps.knex, scope, await loadViewer(deps.knex, actor), limit, offset, q.from !== undefined || q.to !== undefined);
  });

  router.get('/dashboard', auth, async (ctx) => {
    const { actor, scope } = await scopeOf(ctx);
    ctx.body = { data: await dashboard(deps.knex, scope, await loadViewer(deps.knex, actor)) };
  });

  router.get('/dashboard/agents', auth, async (ctx) => {
    const { scope } = await scopeOf(ctx);
    const rows = await agentsReport(deps.knex, scope);
    ctx.body = { data: rows, matchCount: rows.length, totalCount: rows.length };
  });

  return router;
}
