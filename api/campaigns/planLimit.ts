import type { Knex } from 'knex';
import { errors } from '../http/errors';

export const PLAN_EXPIRED = 'Seu plano expirou: atualize o plano para criar ou retomar campanhas.';
export const NO_CAMPAIGNS_IN_PLAN = 'Seu plano não inclui campanhas. As campanhas fazem parte do plano Enterprise: fale com o suporte para mudar de plano.';
export const campaignLimitReached = (units: number) =>
  `Seu plano permite ${units} ${units === 1 ? 'campanha' : 'campanhas'} em execução ao mesmo tempo. Aguarde uma terminar, pause uma delas ou contrate uma campanha adicional.`;

type Db = Knex | Knex.Transaction;

/** The workspace's campaign units now, or why it has none (SPEC §1: trial, Basic and Business have 0). */
async function planUnits(db: Db, workspaceId: number): Promise<{ units: number; refusal: string | null }> {
  const sub = await db('subscriptions')
    .where({ workspaceId })
    .whereNot({ status: 'canceled' })
    .where('expires_at', '>', db.fn.now())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .first('campaign_units');
  const units = Number(sub?.campaignUnits ?? 0);
  if (units > 0) return { units, refusal: null };
  // A plan with campaigns that expired is told as such (renewing brings them back).
  const latest = await db('subscriptions').where({ workspaceId }).whereNot({ status: 'canceled' }).orderBy('created_at', 'desc').orderBy('id', 'desc').first('campaign_units', 'expires_at');
  const expired = latest && Number(latest.campaignUnits) > 0 && new Date(latest.expiresAt).getTime() <= Date.now();
  return { units: 0, refusal: expired ? PLAN_EXPIRED : NO_CAMPAIGNS_IN_PLAN };
}

const RUNNING = ['waiting_file_processing', 'waiting_processing', 'executing'];

async function runningCampaigns(db: Db, workspaceId: number, except?: number): Promise<number> {
  const q = db('campaigns').where({ workspaceId }).whereIn('status', RUNNING);
  if (except) q.whereNot({ id: except });
  const [{ n }] = await q.count({ n: '*' });
  return Number(n);
}

export interface CampaignPlan {
  campaignUnits: number;
  running: number;
  /** Why the plan cannot create or resume any campaign (the 403 text of a creation), or null when it can. */
  refusal: string | null;
}

/** What the campaigns page and the wizard show before anything is filled in (GET /api/campaign/plan). */
export async function campaignPlan(db: Db, workspaceId: number): Promise<CampaignPlan> {
  const [{ units, refusal }, running] = await Promise.all([planUnits(db, workspaceId), runningCampaigns(db, workspaceId)]);
  return { campaignUnits: units, running, refusal };
}

/**
 * SPEC §1: at most `campaignUnits` campaigns running at once (Enterprise 1, +1 per add-on; trial, Basic and
 * Business 0). Running = waiting_file_processing, waiting_processing or executing; paused and finished ones
 * do not count. Locks the workspace row, so two creations or resumes at once cannot both pass.
 */
export async function assertCampaignSlot(trx: Knex.Transaction, workspaceId: number, except?: number): Promise<void> {
  await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
  const { units, refusal } = await planUnits(trx, workspaceId);
  if (refusal) throw errors.forbidden(refusal);
  if ((await runningCampaigns(trx, workspaceId, except)) >= units) throw errors.conflict(campaignLimitReached(units), 'status');
}
