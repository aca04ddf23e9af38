import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { workflowIds } from '../../workflows/ids';
import type { contractImport, ContractImportInput } from '../../workflows/contracts/contractImport';

/** Starts `contract-import:{workspaceId}:{importId}` (USE_EXISTING: a second start keeps the running run), failing when Temporal does. */
export async function startContractImport(temporal: AppDeps['temporal'], input: ContractImportInput): Promise<void> {
  const client = await temporal.client();
  await client.workflow.start<typeof contractImport>('contractImport', {
    taskQueue: temporal.taskQueue,
    workflowId: workflowIds.contractImport(input.workspaceId, input.importId),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [input],
  });
}

/**
 * The start after the import committed. A failure is logged, not thrown: the contracts stay `created`
 * ('Processando') until the worker's start-up reconcile (activities/contracts/reconcileContractImports.ts)
 * starts their import.
 */
export async function startContractImportAfterCommit(deps: Pick<AppDeps, 'temporal' | 'logger'>, input: ContractImportInput): Promise<void> {
  try {
    await startContractImport(deps.temporal, input);
  } catch (err) {
    deps.logger.error({ err, workspaceId: input.workspaceId, importId: input.importId }, 'contract import workflow did not start');
  }
}
