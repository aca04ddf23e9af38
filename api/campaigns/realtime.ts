import type { Knex } from 'knex';
import { topics, type Publisher } from '../realtime/publisher';
import { AccessLevel } from '../policy/levels';
import { presentCampaignProgress } from './presenters';

export const CAMPAIGN_STATUS_EVENT = 'campaign.status';

/**
 * Publishes a campaign's progress to the members who may open campaigns (level 6+, SPEC §6), each on their
 * own topic: the /campaigns list and detail update without reloading. Read after the write committed.
 */
export async function publishCampaignProgress(deps: { knex: Knex; publisher: Publisher }, campaignId: number): Promise<void> {
  const row = await deps.knex('campaigns')
    .where({ id: campaignId })
    .first('id', 'workspace_id', 'status', 'total_numbers', 'total_numbers_executed', 'total_numbers_failed', 'total_numbers_invalid', 'pause_reason', 'error');
  if (!row) return;
  const members: { operatorId: number }[] = await deps.knex('workspace_members').where({ workspaceId: row.workspaceId }).where('access_level', '>=', AccessLevel.MASTER).select('operator_id');
  const data = presentCampaignProgress(row);
  await Promise.all(members.map((m) => deps.publisher.publish(topics.operator(row.workspaceId, m.operatorId), CAMPAIGN_STATUS_EVENT, data)));
}
