import { FINAL_CAMPAIGN_STATUSES } from '../../api/models/Campaign';
import { workflowIds } from '../../workflows/ids';
import { startCampaignRun } from '../../api/campaigns/runGateway';
import { startNotRunning, type ReconcileDeps } from '../temporal/startNotRunning';

/**
 * Start-up reconcile of campaigns (docs/campaigns.md "Start-up reconcile"), as QR lines' `channel:{id}` are
 * reconciled: every campaign not finished, failed or canceled whose `campaign:{id}` workflow is not running
 * gets one (USE_EXISTING, so a run started meanwhile is kept). Covers an api that stopped between the
 * campaign's insert and the workflow's start (or Temporal away at that moment), and a Temporal store that was
 * lost. The run reads the row: a `waiting_file_processing` campaign processes its file, a paused one waits
 * for a resume, an executing one goes on (numbers left `sending` after their hand-over are never sent again). Answers how many
 * were started.
 */
export async function reconcileCampaigns(deps: ReconcileDeps, options: { campaignIds?: number[] } = {}): Promise<number> {
  const { temporal } = deps;
  if (!temporal) return 0;
  let query = deps.knex('campaigns');
  // A subset of campaigns (a test's own, in a database other tests share).
  if (options.campaignIds) query = query.whereIn('id', options.campaignIds);
  const campaigns: { id: number }[] = await query.whereNotIn('status', [...FINAL_CAMPAIGN_STATUSES]).orderBy('id').select('id');
  return startNotRunning(temporal, campaigns, {
    id: (campaign) => workflowIds.campaign(campaign.id),
    start: (campaign) => startCampaignRun(temporal, campaign.id),
    failed: (err, campaign) => deps.logger.warn({ err, campaignId: campaign.id }, 'campaign workflow not started'),
  });
}
