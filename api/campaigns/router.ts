import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { likePattern, parseListQuery, writeList } from '../http/listQuery';
import { errors } from '../http/errors';
import { authorize } from '../policy/policy';
import { scoped } from '../db/scope';
import { Campaign } from '../models/Campaign';
import { CampaignCreateSchema, CampaignNumbersQuerySchema, CampaignUpdateSchema } from './schema';
import { createCampaign } from './createCampaign';
import { updateCampaign } from './updateCampaign';
import { presentCampaign } from './presenters';
import { campaignPlan } from '../billing/limits';
import { campaignReportCsvStream, campaignReportStream } from './report';
import { signReportAuthorization, verifyReportAuthorization } from './reportLink';
import { bearerOrSignedLink, downloadWorkspace } from '../auth/downloadAccess';
import { receiveUploads } from '../assets/receiveUploads';
import { presentStoredFile } from '../assets/presenters';
import { createStorage } from '../storage/storage';
import { readFileColumns } from './fileColumns';

const notFound = () => errors.notFound('Campanha não encontrada.');

/**
 * Campaigns (SPEC §7, level 6+): GET/POST /campaign, GET/PUT /campaign/{id}, the detail's numbers, the plan's
 * campaign units (GET /campaign/plan), and the report at /report/campaign/{id} (bearer, or the short-lived
 * `authorization` link for a new window).
 */
export function campaignsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  const listOptions = { sortable: ['createdAt', 'name', 'executionDate', 'status', 'id'], defaultSort: { field: 'createdAt', order: 'desc' as const }, filterable: ['status'], maxLimit: 1000 };

  router.get('/campaign', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const q = parseListQuery(ctx, listOptions);
    const filtered = scoped(Campaign, actor);
    if (q.ids) filtered.whereIn('campaigns.id', q.ids);
    if (q.filter.status !== undefined) {
      const v = q.filter.status;
      if (Array.isArray(v)) filtered.whereIn('campaigns.status', v as string[]);
      else filtered.where('campaigns.status', String(v));
    }
    if (q.query) filtered.where('campaigns.name', 'ilike', likePattern(q.query));
    const column = q.sort.field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const [rows, matchCount, totalCount] = await Promise.all([
      filtered.clone().orderBy(`campaigns.${column}`, q.sort.order).orderBy('campaigns.id', q.sort.order).limit(q.limit).offset(q.offset),
      filtered.clone().resultSize(),
      scoped(Campaign, actor).resultSize(),
    ]);
    writeList(ctx, 'campaign', q, { rows: (rows as Campaign[]).map((r) => presentCampaign(r, deps.config)), matchCount, totalCount });
  });

  /** The plan's campaign units, how many run, and why none can be created (shown before the wizard is walked). */
  // The wizard's numbers file (docs/campaigns-ui.md): stored like any upload, answered with its column
  // headers and first row (null when it is no numbers file or cannot be read: the campaign says why).
  const storage = createStorage(deps.config);
  router.post('/campaign/numbers-file', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const [row] = await receiveUploads({ knex: deps.knex, storage }, ctx.req, {
      workspaceId: actor.workspaceId,
      operatorId: actor.operatorId,
      fieldPattern: /^file0$/,
      maxFiles: 1,
      logger: deps.logger,
    });
    if (!row) throw errors.validation([{ key: 'file0', descriptions: ['Envie o arquivo de números.'] }]);
    const object = await storage.get(row.key);
    let columns = null;
    try {
      columns = object ? await readFileColumns(row.fileName, object.stream) : null;
    } finally {
      object?.stream.destroy();
    }
    ctx.status = 201;
    ctx.body = { data: { ...presentStoredFile(deps.config, row), columns } };
  });

  router.get('/campaign/plan', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    ctx.body = { data: await campaignPlan(deps.knex, actor.workspaceId) };
  });

  router.get('/campaign/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const row = (await scoped(Campaign, actor).findById(parseId(ctx.params.id))) as Campaign | undefined;
    if (!row) throw notFound();
    ctx.body = { data: presentCampaign(row, deps.config) };
  });

  router.get('/campaign/:id/numbers', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const id = parseId(ctx.params.id);
    const q = parseQuery(ctx, CampaignNumbersQuerySchema);
    const campaign = await scoped(Campaign, actor).findById(id).select('campaigns.id');
    if (!campaign) throw notFound();
    const base = deps.knex('campaign_numbers').where({ workspaceId: actor.workspaceId, campaignId: id });
    const filtered = q.status ? base.clone().where({ status: q.status }) : base.clone();
    const [rows, [{ n }], counts]: [unknown[], { n: string | number }[], { status: string; n: string | number }[]] = await Promise.all([
      filtered.clone().orderBy('id').limit(q.limit).offset(q.offset).select('id', 'raw', 'normalized', 'status', 'sent_at', 'delivered_at', 'read_at', 'error'),
      filtered.clone().count({ n: '*' }) as Promise<{ n: string | number }[]>,
      base.clone().groupBy('status').select('status').count({ n: '*' }) as Promise<{ status: string; n: string | number }[]>,
    ]);
    ctx.body = {
      data: rows,
      matchCount: Number(n),
      totalCount: counts.reduce((s, c) => s + Number(c.n), 0),
      counts: Object.fromEntries(counts.map((c) => [c.status, Number(c.n)])),
    };
  });

  router.post('/campaign', auth, async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    // SPEC "save": a body with an id updates that campaign (name or status), otherwise it creates one.
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    if (body && typeof body === 'object' && !Array.isArray(body) && body.id !== undefined && body.id !== null) {
      const id = parseId(body.id);
      delete body.id;
      ctx.body = { data: presentCampaign(await updateCampaign(deps, actor, id, parseBody(ctx, CampaignUpdateSchema)), deps.config) };
      return;
    }
    const row = await createCampaign(deps, actor, parseBody(ctx, CampaignCreateSchema));
    ctx.status = 201;
    ctx.body = { data: presentCampaign(row, deps.config) };
  });

  router.put('/campaign/:id', auth, async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const id = parseId(ctx.params.id);
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    if (body && typeof body === 'object' && !Array.isArray(body)) delete body.id;
    ctx.body = { data: presentCampaign(await updateCampaign(deps, actor, id, parseBody(ctx, CampaignUpdateSchema)), deps.config) };
  });

  /** A link for a new window: `{data: {url}}` valid 5 minutes, for this campaign only. */
  router.post('/report/campaign/:id/link', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'campaigns.manage');
    const id = parseId(ctx.params.id);
    if (!(await scoped(Campaign, actor).findById(id).select('campaigns.id'))) throw notFound();
    const authorization = signReportAuthorization(deps.config, actor.workspaceId, id);
    ctx.body = { data: { url: `/api/report/campaign/${id}?authorization=${encodeURIComponent(authorization)}` } };
  });

  router.get('/report/campaign/:id', bearerOrSignedLink(auth), async (ctx) => {
    const id = parseId(ctx.params.id);
    const workspaceId = downloadWorkspace(ctx, (value) => verifyReportAuthorization(deps.config, id, value), 'Link do relatório inválido ou expirado. Baixe o relatório de novo.', 'campaigns.manage');
    const campaign = await deps.knex('campaigns').where({ workspaceId, id }).first('id', 'name');
    if (!campaign) throw notFound();
    const safeName = String(campaign.name).normalize('NFKD').replace(/[^\w.-]+/g, '_').slice(0, 60) || 'campanha';
    const csv = ctx.query.format === 'csv';
    ctx.set('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    ctx.set('Content-Disposition', `attachment; filename="campanha-${id}-${safeName}.${csv ? 'csv' : 'xlsx'}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = csv ? campaignReportCsvStream(deps.knex, id, deps.logger) : campaignReportStream(deps.knex, id, deps.logger);
  });

  return router;
}
