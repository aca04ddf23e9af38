import { publishCampaignProgress } from '../../api/campaigns/realtime';
import type { Pacing } from '../../workflows/campaigns/pacing';
import type { ActivityDeps } from '../deps';

export interface CampaignPlan extends Pacing {
  status: string;
  /** Epoch ms of executionDate; null starts at once. */
  executionAt: number | null;
}

/** What the workflow needs to pace a campaign (read once per run: only the name is editable). */
export const loadCampaignPlan =
  (deps: ActivityDeps) =>
  async ({ campaignId }: { campaignId: number }): Promise<CampaignPlan | null> => {
    const c = await deps.knex('campaigns')
      .where({ id: campaignId })
      .first('status', 'execution_date', 'chunks', 'time_between_chunks', 'initial_time_between_messages', 'final_time_between_messages');
    if (!c) return null;
    return {
      status: c.status,
      executionAt: c.executionDate ? new Date(c.executionDate).getTime() : null,
      chunks: c.chunks,
      timeBetweenChunks: c.timeBetweenChunks,
      initialTimeBetweenMessages: c.initialTimeBetweenMessages,
      finalTimeBetweenMessages: c.finalTimeBetweenMessages,
    };
  };

/**
 * waiting_processing → executing (SPEC §4: a resume passes through waiting_processing). Any other status is
 * answered as it is: the workflow waits on a paused one and ends on a final one.
 */
export const startCampaignRun =
  (deps: ActivityDeps) =>
  async ({ campaignId }: { campaignId: number }): Promise<string> => {
    const changed = await deps.knex('campaigns')
      .where({ id: campaignId, status: 'waiting_processing' })
      .update({ status: 'executing', pauseReason: null, startedAt: deps.knex.raw('coalesce(started_at, now())'), updatedAt: deps.knex.fn.now() });
    if (changed) await publishCampaignProgress(deps, campaignId);
    const row = await deps.knex('campaigns').where({ id: campaignId }).first('status');
    return row?.status ?? 'missing';
  };

/**
 * executing → finished_success, or finished_fail when not one number was sent (every send failed, or every
 * number had opted out since the file was read). Only from executing: a cancel saved meanwhile stays canceled.
 */
export const finishCampaign =
  (deps: ActivityDeps) =>
  async ({ campaignId }: { campaignId: number }): Promise<string> => {
    const changed = await deps.knex('campaigns')
      .where({ id: campaignId, status: 'executing' })
      .update({
        status: deps.knex.raw("CASE WHEN total_numbers_executed > total_numbers_failed THEN 'finished_success' ELSE 'finished_fail' END"),
        // Nothing executed at all: every number was skipped as opted out after the file was read.
        error: deps.knex.raw(
          `CASE WHEN total_numbers_executed > total_numbers_failed THEN NULL
                WHEN total_numbers_executed = 0 THEN 'Nenhuma mensagem foi enviada: os contatos pediram para não receber campanhas (SAIR).'
                ELSE 'Nenhuma mensagem foi enviada: todos os envios falharam.' END`,
        ),
        finishedAt: deps.knex.fn.now(),
        updatedAt: deps.knex.fn.now(),
      });
    if (changed) await publishCampaignProgress(deps, campaignId);
    const row = await deps.knex('campaigns').where({ id: campaignId }).first('status');
    return row?.status ?? 'missing';
  };
