import type { Knex } from 'knex';
import { AppError, type ErrorType } from '../http/errors';
import type { License, SubscriptionStatus } from '../models/Subscription';
import type { PlanUnits } from './plans';
import { plural, type Usage } from './pricing';

/**
 * The plan's limits, enforced where the product grows (docs/billing.md "Limits"): inviting or reactivating
 * an agent, adding a WhatsApp line, creating or resuming a campaign. One check for all three, each
 * refusal naming the limit and carrying `link` to the page where the plan is changed ('Assinatura').
 */

type Db = Knex | Knex.Transaction;

/** Where a refused limit sends the user (the UI offers it as 'Assinatura'). */
export const PLAN_LINK = '/settings/billing/license';

export type LimitKind = 'agents' | 'whatsapp' | 'campaign';

export const NO_CAMPAIGNS_IN_PLAN = 'Seu plano não inclui campanhas. As campanhas fazem parte do plano Enterprise: mude de plano em Assinatura.';
export const PLAN_EXPIRED = 'Seu plano expirou: renove o plano em Assinatura para criar ou retomar campanhas.';
/** An expired workspace still logs in, reads and pays, but sends nothing (docs/billing.md "Expired plan"). */
export const PLAN_EXPIRED_SEND = 'Seu plano expirou: renove em Assinatura para voltar a enviar mensagens.';
export const agentLimitReached = (n: number) =>
  `Seu plano permite ${plural(n, 'agente ativo', 'agentes ativos')} e o limite foi atingido. Desative um agente ou contrate agentes adicionais em Assinatura.`;
export const whatsappLimitReached = (n: number) =>
  `Seu plano permite ${plural(n, 'linha', 'linhas')} de WhatsApp e o limite foi atingido. Exclua uma linha ou contrate linhas adicionais em Assinatura.`;
export const campaignLimitReached = (n: number) =>
  `Seu plano permite ${plural(n, 'campanha', 'campanhas')} em execução ao mesmo tempo. Aguarde uma terminar, pause uma delas ou contrate campanhas adicionais em Assinatura.`;

/** The statuses of a campaign that holds a parallel-campaign unit; paused and finished ones do not. */
export const RUNNING_CAMPAIGN_STATUSES = ['waiting_file_processing', 'waiting_processing', 'executing'] as const;

export interface SubscriptionInForce {
  id: number;
  license: License;
  status: SubscriptionStatus;
  agents: number;
  numbers: number;
  instagramUnits: number;
  campaignUnits: number;
  months: number;
  expiresAt: Date;
  /** An unpaid renewal keeps the plan until then (docs/billing.md "Grace period"). */
  graceEndsAt: Date | null;
  /**
   * Not expired: a canceled subscription keeps its plan until the end of the paid period (SPEC §1 terms), a
   * renewing one until the end of its grace period.
   */
  inForce: boolean;
}

/**
 * The subscription whose limits apply: the newest one in force, else the newest one (an expired plan
 * keeps its units: renewing brings them back, and it is still what the workspace is limited to).
 */
export async function currentSubscription(db: Db, workspaceId: number, now = new Date()): Promise<SubscriptionInForce | undefined> {
  const row = (await db('subscriptions')
    .where({ workspaceId })
    .orderByRaw("(status <> 'expired' AND greatest(expires_at, grace_ends_at) > ?) DESC", [now])
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .first('id', 'license', 'status', 'agents', 'numbers', 'instagramUnits', 'campaignUnits', 'months', 'expiresAt', 'graceEndsAt')) as Omit<SubscriptionInForce, 'inForce'> | undefined;
  if (!row) return undefined;
  const expiresAt = new Date(row.expiresAt);
  const graceEndsAt = row.graceEndsAt ? new Date(row.graceEndsAt) : null;
  const end = Math.max(expiresAt.getTime(), graceEndsAt?.getTime() ?? 0);
  return { ...row, expiresAt, graceEndsAt, inForce: row.status !== 'expired' && end > now.getTime() };
}

/**
 * The units a workspace may use. Every workspace the product opens has a subscription (signup, 'Novo
 * workspace' and the demo seed give it its trial); one without was made outside the product (by hand, or
 * a test's factory) and has no plan to count agents and lines against, so only campaigns, which need a
 * plan that has them, are refused.
 */
export function limitsOf(sub: SubscriptionInForce | undefined): PlanUnits {
  if (!sub) return { agents: Infinity, whatsapp: Infinity, instagram: Infinity, campaign: 0 };
  return { agents: sub.agents, whatsapp: sub.numbers, instagram: sub.instagramUnits, campaign: sub.campaignUnits };
}

async function countOf(q: Knex.QueryBuilder): Promise<number> {
  const [{ n }] = (await q.count({ n: '*' })) as { n: string | number }[];
  return Number(n);
}

/** Active members: pending invitations included, since each holds a seat once accepted. */
const activeAgents = (db: Db, workspaceId: number) => countOf(db('workspaceMembers').where({ workspaceId, isActive: true }));
const channelsOf = (db: Db, workspaceId: number, type: 'whatsapp' | 'instagram') => countOf(db('channels').where({ workspaceId, type }));

/** What the workspace uses of each unit now: a subscription (pricing.ts) cannot go below it. */
export async function loadUsage(db: Db, workspaceId: number): Promise<Usage & { campaign: number }> {
  // One after the other: inside a transaction they share one connection.
  const agents = await activeAgents(db, workspaceId);
  const whatsapp = await channelsOf(db, workspaceId, 'whatsapp');
  const instagram = await channelsOf(db, workspaceId, 'instagram');
  const campaign = await runningCampaigns(db, workspaceId);
  return { agents, whatsapp, instagram, campaign };
}

async function runningCampaigns(db: Db, workspaceId: number, except?: number): Promise<number> {
  const q = db('campaigns').where({ workspaceId }).whereIn('status', [...RUNNING_CAMPAIGN_STATUSES]);
  if (except) q.whereNot({ id: except });
  return countOf(q);
}

function limitError(type: Extract<ErrorType, 'ForbiddenError' | 'ConflictError'>, description: string, key?: string): AppError {
  return new AppError(type, [{ type, title: 'Limite do plano', ...(key ? { key } : {}), descriptions: [description], link: PLAN_LINK }]);
}

/** 402: the plan expired; renewing it (the link) lifts the refusal. */
function expiredError(description: string): AppError {
  return new AppError('PaymentRequiredError', [{ type: 'PaymentRequiredError', title: 'Plano expirado', descriptions: [description], link: PLAN_LINK }]);
}

/**
 * Refuses sending a message to a customer while the workspace's plan is not in force (expired, or canceled
 * and past its paid period): 402 with PLAN_EXPIRED_SEND. A workspace with no subscription row is not limited.
 */
export async function assertCanSend(db: Db, workspaceId: number, now = new Date()): Promise<void> {
  const sub = await currentSubscription(db, workspaceId, now);
  if (sub && !sub.inForce) throw expiredError(PLAN_EXPIRED_SEND);
}

export interface CampaignPlan {
  campaignUnits: number;
  running: number;
  /** Why the plan cannot create or resume any campaign (the 403 text of a creation), or null when it can. */
  refusal: string | null;
}

/** SPEC §1: trial, Basic and Business have no campaigns; an expired plan is told as such (renewing brings them back). */
function campaignRefusal(sub: SubscriptionInForce | undefined): string | null {
  if (!sub || sub.campaignUnits <= 0) return NO_CAMPAIGNS_IN_PLAN;
  return sub.inForce ? null : PLAN_EXPIRED;
}

/** What the campaigns page and the wizard show before anything is filled in (GET /api/campaign/plan). */
export async function campaignPlan(db: Db, workspaceId: number): Promise<CampaignPlan> {
  const [sub, running] = await Promise.all([currentSubscription(db, workspaceId), runningCampaigns(db, workspaceId)]);
  const refusal = campaignRefusal(sub);
  return { campaignUnits: refusal ? 0 : (sub as SubscriptionInForce).campaignUnits, running, refusal };
}

/**
 * Refuses one more of `kind` beyond the plan: an agent (invitation or reactivation) beyond `agents`, a
 * WhatsApp line beyond `numbers`, a running campaign beyond `campaignUnits` (`except`: the campaign being
 * resumed). Locks the workspace row first, so two requests at once cannot both take the last unit.
 * A plan without any campaign is a 403 and an expired one a 402; every unit in use is a 403 for agents and lines
 * and a 409 for campaigns (one that ends or pauses frees its unit).
 */
export async function assertWithinLimit(trx: Knex.Transaction, workspaceId: number, kind: LimitKind, options: { except?: number; now?: Date } = {}): Promise<void> {
  await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
  const sub = await currentSubscription(trx, workspaceId, options.now);
  const limit = limitsOf(sub)[kind];
  if (kind === 'campaign') {
    const refusal = campaignRefusal(sub);
    if (refusal === PLAN_EXPIRED) throw expiredError(refusal);
    if (refusal) throw limitError('ForbiddenError', refusal);
    if ((await runningCampaigns(trx, workspaceId, options.except)) >= limit) throw limitError('ConflictError', campaignLimitReached(limit), 'status');
    return;
  }
  const used = kind === 'agents' ? await activeAgents(trx, workspaceId) : await channelsOf(trx, workspaceId, 'whatsapp');
  if (used >= limit) throw limitError('ForbiddenError', kind === 'agents' ? agentLimitReached(limit) : whatsappLimitReached(limit));
}
