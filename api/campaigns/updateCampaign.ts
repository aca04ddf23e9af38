import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Campaign, type CampaignStatus } from '../models/Campaign';
import { publishCampaignProgress } from './realtime';
import { assertWithinLimit } from '../billing/limits';
import { signalCampaignWorkflow } from './runGateway';
import type { CampaignUpdateReq } from './schema';
import { CAMPAIGN_STATUS_LABELS } from './statusLabels';

/** SPEC §4: executing → paused, paused → waiting_processing (resume), any unfinished → canceled. */
function allowed(from: CampaignStatus, to: CampaignUpdateReq['status']): boolean {
  if (to === 'paused') return from === 'executing';
  if (to === 'waiting_processing') return from === 'paused';
  if (to === 'canceled') return !['finished_success', 'finished_fail', 'canceled'].includes(from);
  return false;
}

/**
 * Saving `{id, name}` renames (the only editable field); `{id, status}` changes the status by SPEC's
 * transitions (a resume takes a plan slot), then wakes `campaign:{id}` after commit. Answers the row.
 */
export async function updateCampaign(deps: AppDeps, actor: Actor, id: number, input: CampaignUpdateReq): Promise<Campaign> {
  const { row, statusChanged } = await Campaign.transaction(deps.knex, async (trx) => {
    const existing = (await scoped(Campaign, actor, trx).findById(id).forUpdate()) as Campaign | undefined;
    if (!existing) throw errors.notFound('Campanha não encontrada.');
    const patch: Partial<Campaign> = {};
    if (input.name !== undefined) patch.name = input.name;
    let changed = false;
    if (input.status !== undefined && input.status !== existing.status) {
      if (!allowed(existing.status, input.status)) {
        throw errors.field('status', `Não é possível passar a campanha de '${CAMPAIGN_STATUS_LABELS[existing.status]}' para '${CAMPAIGN_STATUS_LABELS[input.status]}'.`);
      }
      if (input.status === 'waiting_processing') await assertWithinLimit(trx, actor.workspaceId, 'campaign', { except: existing.id });
      patch.status = input.status;
      if (input.status === 'waiting_processing') patch.pauseReason = null;
      if (input.status === 'canceled') patch.finishedAt = new Date();
      changed = true;
    }
    const patched = (await existing.$query(trx).patchAndFetch({ ...patch, updatedAt: new Date() })) as Campaign;
    return { row: patched, statusChanged: changed };
  });
  if (statusChanged) {
    await publishCampaignProgress(deps, row.id);
    await signalCampaignWorkflow(deps, row.id, row.status as 'paused' | 'waiting_processing' | 'canceled');
  }
  return row;
}
