import type { Knex } from 'knex';
import { errors } from '../http/errors';

export const PLAN_EXPIRED = 'Seu plano expirou: atualize o plano para criar ou retomar campanhas.';
export const NO_CAMPAIGNS_IN_PLAN = 'Seu plano não inclui campanhas. As campanhas fazem parte do plano Enterprise: fale com o suporte para mudar de plano.';
export const campaignLimitReached = (units: number) =>
  `Seu plano permite ${units} ${units === 1 ? 'campanha' : 'campanhas'} em execução ao mesmo tempo. Aguarde uma terminar, pause uma delas ou contrate uma campanha adicional.`;

/**
 * SPEC §1: at most `campaignUnits` campaigns running at once (Enterprise 1, +1 per add-on; trial, Basic and
 * Business 0). Running = waiting_file_processing, waiting_processing or executing; paused and finished ones
 * do not count. Locks the workspace row, so two creations or resumes at once cannot both pass.
 */
export async function assertCampaignSlot(trx: Knex.Transaction, workspaceId: number, except?: number): Promise<void> {
  await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
  const sub = await trx('subscriptions')
    .where({ workspaceId })
    .whereNot({ status: 'canceled' })
    .where('expires_at', '>', trx.fn.now())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .first('campaign_units');
  const units = Number(sub?.campaignUnits ?? 0);
  if (units <= 0) {
    // A plan with campaigns that expired is told as such (renewing brings them back).
    const latest = await trx('subscriptions').where({ workspaceId }).whereNot({ status: 'canceled' }).orderBy('created_at', 'desc').orderBy('id', 'desc').first('campaign_units', 'expires_at');
    if (latest && Number(latest.campaignUnits) > 0 && new Date(latest.expiresAt).getTime() <= Date.now()) throw errors.forbidden(PLAN_EXPIRED);
    throw errors.forbidden(NO_CAMPAIGNS_IN_PLAN);
  }
  const q = trx('campaigns').where({ workspaceId }).whereIn('status', ['waiting_file_processing', 'waiting_processing', 'executing']);
  if (except) q.whereNot({ id: except });
  const [{ n }] = await q.count({ n: '*' });
  if (Number(n) >= units) throw errors.conflict(campaignLimitReached(units), 'status');
}
