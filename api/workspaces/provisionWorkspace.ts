import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Config } from '../config';
import { AccessLevel } from '../policy/levels';
import { claimTrial } from './trialGrants';

/** SPEC §1: the trial is priced like Business (449, 5 agents, 1 line, 0 campaigns). */
export const TRIAL_PLAN = { license: 'trial', agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 44_900 } as const;

/** Said with the session of a workspace opened after its owner's address already had its trial. */
export const NO_TRIAL_NOTICE =
  'O período de avaliação gratuita vale uma vez por e-mail e o seu já foi usado. Este workspace foi criado sem avaliação: fale com o suporte para assinar um plano.';

export interface ProvisionedWorkspace {
  workspaceId: number;
  /** False when the owner's address had its trial already: the subscription starts expired. */
  trial: boolean;
  subscription: { id: number; expiresAt: Date };
}

/**
 * A new workspace with its owner and its subscription, inside the caller's transaction. SPEC §1 gives one
 * trial per business e-mail: the first workspace an address opens (signup or "Novo workspace") gets it;
 * a later one gets the same trial-shaped subscription already expired at creation, so the app shows the
 * expired-plan banner and no lifecycle has anything to wait for.
 */
export async function provisionWorkspace(
  trx: Knex.Transaction,
  config: Pick<Config, 'trialDays'>,
  input: { name: string; ownerId: number; ownerEmail: string },
): Promise<ProvisionedWorkspace> {
  const [ws] = await trx('workspaces')
    .insert({ name: input.name, customerIdentifier: randomBytes(12).toString('hex') })
    .returning('id');
  await trx('workspaceMembers').insert({ workspaceId: ws.id, operatorId: input.ownerId, accessLevel: AccessLevel.OWNER });
  const trial = await claimTrial(trx, { email: input.ownerEmail, operatorId: input.ownerId, workspaceId: ws.id });
  const expiresAt = trial ? new Date(Date.now() + config.trialDays * 24 * 60 * 60 * 1000) : new Date();
  const [sub] = await trx('subscriptions')
    .insert({ workspaceId: ws.id, ...TRIAL_PLAN, status: trial ? 'active' : 'expired', autorenewal: false, expiresAt })
    .returning(['id', 'expiresAt']);
  return { workspaceId: ws.id, trial, subscription: { id: sub.id, expiresAt: new Date(sub.expiresAt) } };
}

/**
 * Starts the lifecycle workflow of a trial after commit. Not awaited by the request and not fatal: the
 * worker reconciles active subscriptions without a running lifecycle when it starts.
 */
export function startLifecycleAfterCommit(deps: Pick<AppDeps, 'temporal' | 'logger'>, p: ProvisionedWorkspace): void {
  if (!p.trial) return;
  deps.temporal
    .startSubscriptionLifecycle({ subscriptionId: p.subscription.id, workspaceId: p.workspaceId, expiresAt: p.subscription.expiresAt.toISOString() })
    .catch((err: unknown) =>
      deps.logger.warn({ err, subscriptionId: p.subscription.id }, 'subscription lifecycle not started; the worker reconciles it'),
    );
}
