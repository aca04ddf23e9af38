import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { topics } from '../realtime/publisher';
import { Funnel } from '../models/Funnel';
import { FunnelCreateSchema, FunnelUpdateSchema, type FunnelCreateReq, type FunnelUpdateReq } from './schema';
import { presentFunnel, replaceStages, stagesByFunnel, type FunnelWithStages } from './funnels';

/**
 * Funnels at /api/funnels (docs/kanban.md): every level reads them (the board's columns by stage), level
 * 6+ writes (SPEC §6 workspace settings). After a change every open board of the workspace is told on the
 * workspace topic (no conversation content there) and reloads its columns.
 */
export function funnelsRouter(deps: AppDeps) {
  const announce = async (workspaceId: number, funnelId: number) => {
    try {
      await deps.publisher.publish(topics.workspace(workspaceId), 'kanban.funnelChanged', { funnelId });
    } catch (err) {
      deps.logger.warn({ err, funnelId }, 'realtime publish failed');
    }
  };
  return resourceRouter<Funnel, FunnelCreateReq, FunnelUpdateReq>(deps, {
    path: '/funnels',
    resource: 'funnels',
    model: Funnel,
    createSchema: FunnelCreateSchema,
    updateSchema: FunnelUpdateSchema,
    readAction: 'funnels.read',
    writeAction: 'funnels.manage',
    list: { sortable: ['name', 'sort', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, searchColumns: ['name'], maxLimit: 200 },
    sortColumn: 'sort',
    present: presentFunnel,
    toColumns(input) {
      return input.name === undefined ? {} : { name: input.name };
    },
    async saveRelated(row, input, actor, trx) {
      if (input.stages) await replaceStages(trx, actor, row.id, input.stages);
    },
    async load(rows, actor, trx) {
      const byFunnel = await stagesByFunnel(trx ?? deps.knex, actor, rows.map((r) => r.id));
      for (const row of rows as FunnelWithStages[]) row.stages = byFunnel.get(row.id) ?? [];
    },
    async afterWrite(_event, row, actor) {
      await announce(actor.workspaceId, row.id);
    },
  });
}
