import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId } from '../http/validate';
import { parseListQuery, writeList } from '../http/listQuery';
import { errors } from '../http/errors';
import { authorize } from '../policy/policy';
import { scoped } from '../db/scope';
import { createStorage } from '../storage/storage';
import { contentDisposition } from '../assets/fileNames';
import { sendStoredObject } from '../assets/sendStoredObject';
import { Contract } from '../models/Contract';
import { ContractDecisionSchema, ContractTypeUpdateSchema } from './schema';
import { CONTRACT_LIST_OPTIONS, listContracts } from './queries';
import { presentContract } from './presenters';
import { importContracts } from './importContracts';
import { changeContractType } from './changeContractType';
import { decideContract } from './decideContract';
import { deleteContract } from './deleteContract';
import { publishContractStatus } from './realtime';
import { signContractAuthorization, verifyContractAuthorization } from './downloadLink';
import { bearerOrSignedLink, downloadWorkspace } from '../auth/downloadAccess';

const notFound = () => errors.notFound('Contrato não encontrado.');

/** A body's `id` (SPEC "save": POST /contract {id, code}); the rest is what the schema reads. */
function takeBodyId(ctx: Context): unknown {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const id = body.id;
  delete body.id;
  return id;
}

/**
 * Contracts (leftover product, SPEC §2, §3, §7; docs/contracts.md), level 6+ and inside the caller's
 * workspace: the list with its tabs, period and search, the detail, 'Importar Contrato' (multipart files
 * and code), the type edit, the client's decision, delete (never a formalized one) and the file's download
 * (bearer, or the `authorization` of a link for a new window).
 */
export function contractsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  const storage = createStorage(deps.config);

  router.get('/contract', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const q = parseListQuery(ctx, CONTRACT_LIST_OPTIONS);
    const { rows, matchCount, totalCount } = await listContracts(deps.knex, actor, q);
    writeList(ctx, 'contract', q, { rows: rows.map(presentContract), matchCount, totalCount });
  });

  router.post('/contract/import', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const rows = await importContracts(deps, storage, actor, ctx.req);
    ctx.status = 201;
    ctx.body = { data: rows.map(presentContract) };
  });

  router.get('/contract/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const row = (await scoped(Contract, actor).findById(parseId(ctx.params.id))) as Contract | undefined;
    if (!row) throw notFound();
    ctx.body = { data: presentContract(row) };
  });

  const changeType = async (ctx: Context, id: number) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const row = await changeContractType(deps.knex, actor, id, parseBody(ctx, ContractTypeUpdateSchema));
    ctx.body = { data: presentContract(row) };
  };
  router.put('/contract/:id', auth, async (ctx) => {
    takeBodyId(ctx);
    await changeType(ctx, parseId(ctx.params.id));
  });
  // SPEC §7 "type update id plus code": the save of the generic lists, with the id in the body.
  router.post('/contract', auth, async (ctx) => {
    authorize(actorOf(ctx), 'contracts.manage');
    const id = takeBodyId(ctx);
    if (id === undefined || id === null) throw errors.field('id', 'Informe o contrato.');
    await changeType(ctx, parseId(id));
  });

  router.post('/contract/:id/status', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const row = await decideContract(deps.knex, actor, parseId(ctx.params.id), parseBody(ctx, ContractDecisionSchema));
    await publishContractStatus(deps, actor.workspaceId, [row.id]);
    ctx.body = { data: presentContract(row) };
  });

  router.delete('/contract/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    await deleteContract(deps, storage, actor, parseId(ctx.params.id));
    ctx.body = { data: { id: Number(ctx.params.id) } };
  });

  /** A link for a new window: `{data: {url}}` valid 5 minutes, for this contract only. */
  router.post('/contract/:id/link', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'contracts.manage');
    const id = parseId(ctx.params.id);
    const row = (await scoped(Contract, actor).findById(id).select('contracts.id', 'contracts.path')) as Contract | undefined;
    if (!row) throw notFound();
    if (!row.path) throw errors.conflict('Este contrato não tem arquivo para baixar.');
    const authorization = signContractAuthorization(deps.config, actor.workspaceId, id);
    ctx.body = { data: { url: `/api/contract/${id}/download?authorization=${encodeURIComponent(authorization)}` } };
  });

  router.get('/contract/:id/download', bearerOrSignedLink(auth), async (ctx) => {
    const id = parseId(ctx.params.id);
    const workspaceId = downloadWorkspace(ctx, (value) => verifyContractAuthorization(deps.config, id, value), 'Link do contrato inválido ou expirado. Baixe o contrato de novo.', 'contracts.manage');
    const row = (await scoped(Contract, { workspaceId }).findById(id).select('contracts.path', 'contracts.file_name')) as Contract | undefined;
    const file = row?.path ? await deps.knex('stored_files').where({ workspaceId, key: row.path }).first('mime', 'file_name') : undefined;
    const object = file && (await storage.get(row!.path!));
    if (!row || !file || !object) throw notFound();
    sendStoredObject(ctx, object, {
      contentType: String(file.mime).startsWith('text/') ? `${file.mime}; charset=utf-8` : file.mime,
      disposition: contentDisposition(row.fileName ?? file.fileName, false),
      cacheControl: 'private, no-store',
    });
  });

  return router;
}
