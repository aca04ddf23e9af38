import Router from '@koa/router';
import type { Context } from 'koa';
import type { ModelClass, QueryBuilder } from 'objection';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import type { BaseModel } from '../models/BaseModel';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId } from '../http/validate';
import { likePattern, parseListQuery, writeList, type ListOptions } from '../http/listQuery';
import { authorize, type Action, type Actor } from '../policy/policy';
import { scoped } from '../db/scope';

export const SortSchema = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(1000),
});

export interface ResourceConfig<M extends BaseModel, C extends object, U extends object> {
  /** URL path under /api, e.g. '/label'. */
  path: string;
  /** Name used in Content-Range. */
  resource: string;
  model: ModelClass<M>;
  createSchema: z.ZodType<C>;
  updateSchema: z.ZodType<U>;
  readAction: Action;
  writeAction: Action;
  list: ListOptions & { searchColumns: readonly string[] };
  /** Column that PATCH /sort writes; omit to disable sorting by hand. */
  sortColumn?: string;
  present(row: M): unknown;
  /** Extra conditions for every read and write (e.g. private rows visible only to their owner). */
  restrict?(query: QueryBuilder<M, M[]>, actor: Actor): void;
  /** Turns a validated body into columns; checks references inside the workspace. `mode` lets a create set owner columns an update must keep. */
  toColumns?(input: C | U, actor: Actor, trx: Knex.Transaction, mode: 'create' | 'update'): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Writes what lives beside the row (join tables) inside the save's transaction, after its insert/patch. */
  saveRelated?(row: M, input: C | U, actor: Actor, trx: Knex.Transaction, mode: 'create' | 'update'): Promise<void> | void;
  /** Attaches what `present` needs beyond the row's columns, with one query for all rows (no N+1). */
  load?(rows: M[], actor: Actor, trx?: Knex.Transaction): Promise<void> | void;
  /** Runs inside the delete's transaction just before the row goes (to note what the delete changes, for afterWrite). */
  beforeDelete?(row: M, actor: Actor, trx: Knex.Transaction): Promise<void> | void;
  /** Runs after a write commits (realtime, workflow starts). */
  afterWrite?(event: 'created' | 'updated' | 'deleted', row: M, actor: Actor): Promise<void> | void;
}

const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The generic list/get/save/delete/sort machinery (SPEC §7 "Lists"), scoped to the caller's workspace and
 * guarded by the policy module. Both list dialects come from listQuery.ts.
 */
export function resourceRouter<M extends BaseModel, C extends object, U extends object>(
  deps: AppDeps,
  cfg: ResourceConfig<M, C, U>,
): Router {
  const router = new Router();
  const table = cfg.model.tableName;
  router.use(cfg.path, authenticate(deps));

  const base = (actor: Actor, trx?: Knex.Transaction) => {
    const q = scoped(cfg.model, actor, trx);
    cfg.restrict?.(q, actor);
    return q;
  };
  const columns = async (input: C | U, actor: Actor, trx: Knex.Transaction, mode: 'create' | 'update') =>
    cfg.toColumns ? await cfg.toColumns(input, actor, trx, mode) : (input as Record<string, unknown>);

  router.get(cfg.path, async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, cfg.readAction);
    const q = parseListQuery(ctx, cfg.list);
    const filtered = base(actor);
    if (q.ids) filtered.whereIn(`${table}.id`, q.ids);
    for (const [k, v] of Object.entries(q.filter)) {
      if (Array.isArray(v)) filtered.whereIn(`${table}.${camelToSnake(k)}`, v as string[]);
      else filtered.where(`${table}.${camelToSnake(k)}`, v as string);
    }
    if (q.query) {
      const pattern = likePattern(q.query);
      filtered.where((w) => {
        for (const col of cfg.list.searchColumns) w.orWhere(`${table}.${camelToSnake(col)}`, 'ilike', pattern);
      });
    }
    const [rows, matched, total] = await Promise.all([
      filtered.clone().orderBy(`${table}.${camelToSnake(q.sort.field)}`, q.sort.order).orderBy(`${table}.id`, q.sort.order).limit(q.limit).offset(q.offset),
      filtered.clone().resultSize(),
      base(actor).resultSize(),
    ]);
    await cfg.load?.(rows as M[], actor);
    writeList(ctx, cfg.resource, q, { rows: rows.map((r) => cfg.present(r)), matchCount: matched, totalCount: total });
  });

  router.get(`${cfg.path}/:id`, async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, cfg.readAction);
    const row = await base(actor).findById(parseId(ctx.params.id));
    if (!row) throw notFound();
    await cfg.load?.([row as M], actor);
    ctx.body = { data: cfg.present(row as M) };
  });

  const create = async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, cfg.writeAction);
    const input = parseBody(ctx, cfg.createSchema);
    const row = await cfg.model.transaction(deps.knex, async (trx) => {
      const values = await columns(input, actor, trx, 'create');
      const inserted = (await cfg.model.query(trx).insert({ ...values, workspaceId: actor.workspaceId } as never)) as M;
      await cfg.saveRelated?.(inserted, input, actor, trx, 'create');
      await cfg.load?.([inserted], actor, trx);
      return inserted;
    });
    await cfg.afterWrite?.('created', row, actor);
    ctx.status = 201;
    ctx.body = { data: cfg.present(row) };
  };

  const update = async (ctx: Context, id: number) => {
    const actor = actorOf(ctx);
    authorize(actor, cfg.writeAction);
    const input = parseBody(ctx, cfg.updateSchema);
    const row = await cfg.model.transaction(deps.knex, async (trx) => {
      const existing = await base(actor, trx).findById(id).forUpdate();
      if (!existing) throw notFound();
      const values = await columns(input, actor, trx, 'update');
      const patched = (await (existing as M).$query(trx).patchAndFetch({ ...values, updatedAt: new Date() } as never)) as M;
      await cfg.saveRelated?.(patched, input, actor, trx, 'update');
      await cfg.load?.([patched], actor, trx);
      return patched;
    });
    await cfg.afterWrite?.('updated', row, actor);
    ctx.body = { data: cfg.present(row) };
  };

  router.post(cfg.path, async (ctx: Context) => {
    // SPEC "save": a body with an id updates that row, otherwise it creates one.
    const body = (ctx.request as { body?: { id?: unknown } }).body;
    if (body && typeof body === 'object' && !Array.isArray(body) && body.id !== undefined && body.id !== null) {
      const id = parseId(body.id);
      delete body.id;
      return update(ctx, id);
    }
    return create(ctx);
  });

  router.put(`${cfg.path}/:id`, async (ctx: Context) => {
    const id = parseId(ctx.params.id);
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    // react-admin sends the whole record back; its read-only fields are dropped, never written.
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const k of ['id', 'workspaceId', 'createdAt', 'updatedAt']) delete body[k];
    }
    return update(ctx, id);
  });

  if (cfg.sortColumn) {
    const sortColumn = cfg.sortColumn;
    router.patch(`${cfg.path}/sort`, async (ctx: Context) => {
      const actor = actorOf(ctx);
      authorize(actor, cfg.writeAction);
      const { ids } = parseBody(ctx, SortSchema);
      await cfg.model.transaction(deps.knex, async (trx) => {
        const found = await base(actor, trx).whereIn(`${table}.id`, ids).select(`${table}.id`);
        if (found.length !== new Set(ids).size) throw notFound();
        for (const [i, id] of ids.entries()) {
          await base(actor, trx).where(`${table}.id`, id).patch({ [sortColumn]: i } as never);
        }
      });
      ctx.body = { data: { ids } };
    });
  }

  router.delete(`${cfg.path}/:id`, async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, cfg.writeAction);
    const id = parseId(ctx.params.id);
    const row = await cfg.model.transaction(deps.knex, async (trx) => {
      const existing = await base(actor, trx).findById(id);
      if (!existing) throw notFound();
      await cfg.load?.([existing as M], actor, trx);
      await cfg.beforeDelete?.(existing as M, actor, trx);
      await base(actor, trx).where(`${table}.id`, id).delete();
      return existing as M;
    });
    await cfg.afterWrite?.('deleted', row, actor);
    ctx.body = { data: cfg.present(row) };
  });

  return router;
}

function notFound() {
  return Object.assign(new Error('not found'), { name: 'NotFoundError' });
}

