import { workflowIds } from '../../workflows/ids';
import { startContractImport } from '../../api/contracts/importGateway';
import { startNotRunning, type ReconcileDeps } from '../temporal/startNotRunning';

/**
 * Start-up reconcile of contract imports (docs/contracts.md "Import workflow"): every import with files
 * still `created` whose workflow is not running is started again with those files (an api that stopped
 * between the import's commit and the start, Temporal away then, or a run that gave up). Processing only
 * touches `created` contracts, so a file is never processed twice. Answers how many were started.
 */
export async function reconcileContractImports(deps: ReconcileDeps, options: { workspaceIds?: number[] } = {}): Promise<number> {
  const { temporal } = deps;
  if (!temporal) return 0;
  let query = deps.knex('contracts').where('status', 'created').whereNotNull('import_id');
  // A subset of workspaces (a test's own, in a database other tests share).
  if (options.workspaceIds) query = query.whereIn('workspace_id', options.workspaceIds);
  const rows: { workspaceId: number; importId: string; id: number }[] = await query.orderBy('id').select('workspace_id', 'import_id', 'id');
  const imports = new Map<string, { workspaceId: number; importId: string; contractIds: number[] }>();
  for (const r of rows) {
    const key = `${r.workspaceId}:${r.importId}`;
    const entry = imports.get(key) ?? { workspaceId: r.workspaceId, importId: r.importId, contractIds: [] };
    entry.contractIds.push(r.id);
    imports.set(key, entry);
  }
  return startNotRunning(temporal, [...imports.values()], {
    id: (i) => workflowIds.contractImport(i.workspaceId, i.importId),
    start: (i) => startContractImport(temporal, i),
    failed: (err, i) => deps.logger.warn({ err, workspaceId: i.workspaceId, importId: i.importId }, 'contract import workflow not started'),
  });
}
