import type { Model, ModelClass, QueryBuilder } from 'objection';
import type { Knex } from 'knex';
import { errors } from '../http/errors';

export interface Scope {
  workspaceId: number;
}

/**
 * The one workspace-scoping helper (DESIGN.md §2): every query on a tenant-owned table starts here,
 * so a row of another workspace is never reachable, and a foreign id is a 404.
 */
export function scoped<M extends Model>(model: ModelClass<M>, scope: Scope, trx?: Knex.Transaction): QueryBuilder<M, M[]> {
  return model.query(trx).where(`${model.tableName}.workspace_id`, scope.workspaceId) as unknown as QueryBuilder<M, M[]>;
}

export async function findScoped<M extends Model>(
  model: ModelClass<M>,
  scope: Scope,
  id: number,
  trx?: Knex.Transaction,
): Promise<M> {
  const row = await scoped(model, scope, trx).findById(id);
  if (!row) throw errors.notFound();
  return row as M;
}
