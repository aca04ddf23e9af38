import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { authorize } from '../policy/policy';
import { loadViewer } from '../policy/conversations';
import { ReportQuerySchema } from './schema';
import { resolveScope } from './filters';
import { agentsReport, conversationsReport } from './figures';
import { dashboard } from './dashboard';
import { DRILL_PAGE_MAX, drillDown } from './drilldown';
import { customersReport, tagsReport } from './lists';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { randomUUID } from 'node:crypto';
import { workflowIds } from '../../workflows/ids';
import type { reportExport } from '../../workflows/reports/reportExport';
import type { ExportKind } from './exportTable';
import { EXPORT_ERROR_TEXT, exportAcceptedText, exportMember, type ReportExportInput } from './exportMail';
import { createSchedule, deleteSchedule, listSchedules, ScheduleBodySchema } from './schedules';

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

  /**
   * E-mail exports (SPEC §7, §8): the filters are checked now (a 400 like the report's), the answer comes at
   * once, and a Temporal workflow mails the .xlsx and .csv to the requester (docs/reports.md "Exports").
   */
  const exportEmail = (kind: ExportKind) => async (ctx: Context) => {
    const { actor } = await scopeOf(ctx);
    const member = await exportMember(deps.knex, actor.workspaceId, actor.operatorId);
    if (!member) throw errors.forbidden();
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.query)) if (typeof v === 'string' || Array.isArray(v)) query[k] = Array.isArray(v) ? v.join(',') : v;
    const input: ReportExportInput = { workspaceId: actor.workspaceId, operatorId: actor.operatorId, kind, query };
    try {
      const client = await deps.temporal.client();
      await client.workflow.start<typeof reportExport>('reportExport', { taskQueue: deps.temporal.taskQueue, workflowId: workflowIds.reportExport(actor.workspaceId, randomUUID()), args: [input] });
    } catch (err) {
      deps.logger.error({ err, kind }, 'report export not started');
      throw errors.unavailable(EXPORT_ERROR_TEXT);
    }
    ctx.status = 202;
    ctx.body = { data: { email: member.email, message: exportAcceptedText(member.email) } };
  };
  router.post('/report/export/email', auth, exportEmail('conversations'));
  router.post('/report/customer/export/email', auth, exportEmail('customers'));
  router.post('/report/tags/export/email', auth, exportEmail('tags'));
  router.post('/report/tags/export-email', auth, exportEmail('tags'));
  router.post('/dashboard/agents/export/email', auth, exportEmail('team'));

  // Scheduled exports (level 6+): a Temporal Schedule per row of report_schedules.
  router.get('/report/schedules', auth, async (ctx) => {
    const rows = await listSchedules(deps.knex, actorOf(ctx));
    ctx.body = { data: rows, matchCount: rows.length, totalCount: rows.length };
  });
  router.post('/report/schedules', auth, async (ctx) => {
    const actor = actorOf(ctx);
    const body = parseBody(ctx, ScheduleBodySchema);
    ctx.status = 201;
    ctx.body = { data: await createSchedule(deps.knex, deps.temporal, actor, body) };
  });
  router.delete('/report/schedules/:id', auth, async (ctx) => {
    await deleteSchedule(deps.knex, deps.temporal, actorOf(ctx), parseId(ctx.params.id));
    ctx.body = { data: { id: Number(ctx.params.id) } };
  });

  return router;
}
