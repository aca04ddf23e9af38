import type { Knex } from 'knex';
import { topics, type Publisher } from '../realtime/publisher';
import { AccessLevel } from '../policy/levels';
import type { ContractStatus } from '../models/Contract';
import { presentContractStatus } from './presenters';

export const CONTRACT_STATUS_EVENT = 'contract.status';

/**
 * Tells the members who may open contracts (level 6+) that contracts changed status, each on their own
 * topic, so /contracts refreshes without reloading. Read after the write committed.
 */
export async function publishContractStatus(deps: { knex: Knex; publisher: Publisher }, workspaceId: number, contractIds: number[]): Promise<void> {
  if (!contractIds.length) return;
  const [rows, members] = await Promise.all([
    deps.knex('contracts').where({ workspaceId }).whereIn('id', contractIds).select('id', 'status', 'error') as Promise<{ id: number; status: ContractStatus; error: string | null }[]>,
    deps.knex('workspace_members').where({ workspaceId, isActive: true }).where('access_level', '>=', AccessLevel.MASTER).select('operator_id') as Promise<{ operatorId: number }[]>,
  ]);
  await Promise.all(rows.flatMap((row) => members.map((m) => deps.publisher.publish(topics.operator(workspaceId, m.operatorId), CONTRACT_STATUS_EVENT, presentContractStatus(row)))));
}
