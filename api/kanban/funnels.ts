import type { Knex } from 'knex';
import type { Scope } from '../db/scope';
import { errors } from '../http/errors';
import { Funnel } from '../models/Funnel';
import type { FunnelStageReq } from './schema';

type Db = Knex | Knex.Transaction;

export interface StageView {
  id: number;
  name: string;
  color: string;
  position: number;
}

export interface FunnelView {
  id: number;
  name: string;
  sort: number;
  stages: StageView[];
  createdAt: Date;
}

export type FunnelWithStages = Funnel & { stages?: StageView[] };

export function presentFunnel(row: FunnelWithStages): FunnelView {
  return { id: row.id, name: row.name, sort: row.sort, stages: row.stages ?? [], createdAt: row.createdAt };
}

/** The stages of each funnel, in their order, in one query. */
export async function stagesByFunnel(db: Db, scope: Scope, funnelIds: number[]): Promise<Map<number, StageView[]>> {
  const out = new Map<number, StageView[]>(funnelIds.map((id) => [id, []]));
  if (!funnelIds.length) return out;
  const rows: (StageView & { funnelId: number })[] = await db('funnel_stages')
    .where({ workspaceId: scope.workspaceId })
    .whereIn('funnel_id', funnelIds)
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('id', 'funnel_id', 'name', 'color', 'position');
  for (const { funnelId, ...stage } of rows) out.get(funnelId)?.push(stage);
  return out;
}

/** A funnel of the workspace with its stages; another workspace's id is a 404. */
export async function findFunnel(db: Db, scope: Scope, id: number): Promise<FunnelView> {
  const row = (await Funnel.query(db).where('funnels.workspace_id', scope.workspaceId).findById(id)) as FunnelWithStages | undefined;
  if (!row) throw errors.notFound('Funil não encontrado.');
  row.stages = (await stagesByFunnel(db, scope, [id])).get(id) ?? [];
  return presentFunnel(row);
}

/**
 * The funnel's stages become exactly `stages`, in that order: listed ids are renamed, recoloured and
 * moved; stages without an id are added; stages left out are deleted and their conversations leave the
 * funnel (stage_id SET NULL by the foreign key). An id that is not one of this funnel's stages is a field
 * error, so a stage can never be moved from another funnel or workspace.
 */
export async function replaceStages(trx: Knex.Transaction, scope: Scope, funnelId: number, stages: FunnelStageReq[]): Promise<void> {
  const current: number[] = await trx('funnel_stages').where({ workspaceId: scope.workspaceId, funnelId }).pluck('id');
  const kept = stages.map((s) => s.id).filter((id): id is number => typeof id === 'number');
  if (kept.some((id) => !current.includes(id))) throw errors.field('stages', 'Etapa não encontrada neste funil.');
  await trx('funnel_stages').where({ workspaceId: scope.workspaceId, funnelId }).whereNotIn('id', kept).delete();
  for (const [position, s] of stages.entries()) {
    if (typeof s.id === 'number') await trx('funnel_stages').where({ workspaceId: scope.workspaceId, id: s.id }).update({ name: s.name, color: s.color, position });
    else await trx('funnel_stages').insert({ workspaceId: scope.workspaceId, funnelId, name: s.name, color: s.color, position });
  }
}

/** A funnel with its stages, as POST /funnels saves it (the demo seed's way in; the route goes through the resource router). */
export async function createFunnel(trx: Knex.Transaction, scope: Scope, input: { name: string; stages: FunnelStageReq[] }): Promise<FunnelView> {
  const [row] = await trx('funnels').insert({ workspaceId: scope.workspaceId, name: input.name }).returning('id');
  await replaceStages(trx, scope, row.id as number, input.stages);
  return findFunnel(trx, scope, row.id as number);
}
