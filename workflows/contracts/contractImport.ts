import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';

export interface ContractImportInput {
  workspaceId: number;
  importId: string;
  /** The import's contracts (one per file), processed in this order. */
  contractIds: number[];
}

/** What became of each file: processed (or overwritten by a newer one), failed, or gone before its turn. */
export type ContractOutcome = 'processed' | 'overwritten' | 'failed' | 'skipped';

export interface ContractImportState {
  done: Record<number, ContractOutcome>;
}

export const contractImportStateQuery = defineQuery<ContractImportState>('contractImportState');

const { processContract, failContract } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // Retries are for infrastructure (database, storage away); a file that cannot be read is a result, not an error.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * One contract import (`contract-import:{workspaceId}:{importId}`, docs/contracts.md "Import workflow"):
 * each file is hashed (its stamp), parsed by its type's layout and marked processed, one after the other
 * so two files with the same contract number overwrite in import order. A file that fails is marked
 * failed with its reason and the next one goes on; one whose activity still fails after its retries is
 * marked failed too.
 */
export async function contractImport(input: ContractImportInput): Promise<ContractImportState> {
  const state: ContractImportState = { done: {} };
  setHandler(contractImportStateQuery, () => state);
  for (const contractId of input.contractIds) {
    const ref = { workspaceId: input.workspaceId, contractId };
    try {
      state.done[contractId] = await processContract(ref);
    } catch {
      state.done[contractId] = await failContract(ref);
    }
  }
  return state;
}
