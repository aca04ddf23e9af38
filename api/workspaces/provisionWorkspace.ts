import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Config } from '../config';
import { AccessLevel } from '../policy/levels';

/** SPEC §1: the trial is priced like Business (449, 5 agents, 1 line, 0 campaigns). */
export const TRIAL_PLAN = { license: 'trial', agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 449 } as const;

export interface ProvisionedWorkspace {
  workspaceId: number;
  subscription: { id: number; expiresAt: Date };
}

/** A new workspace with its owner and a trial subscription, inside the caller's transaction. */
export async function provisionWorkspace(
  trx: Knex.Transaction,
  config: Pick<Config, 'trialDays'>,
  input: { name: string; ownerId: number },
): Promise<ProvisionedWorkspace> {
  const [ws] = await trx('workspaces')
    .insert({ name: input.name, customerIdentifier: randomBytes(12).toString('hex') })
    .returning('id');
  await trx('workspaceMembers').insert({ workspaceId: ws.id, operatorId: input.ownerId, accessLevel: AccessLevel.OWNER });
  const expiresAt = new Date(Date.now() + config.trialDays * 24 * 60 * 60 * 1000);
  const [sub] = await trx('subscriptions')
    .insert({ workspaceId: ws.id, ...TRIAL_PLAN, status: 'active', autorenewal: false, expiresAt })
    .returning(['id', 'expiresAt']);
  return { workspaceId: ws.id, subscription: { id: sub.id, expiresAt: new Date(sub.expiresAt) } };
}

/**
 * Starts the lifecycle workflow after commit. Not awaited by the request and not fatal: the worker
 * reconciles subscriptions without a running lifecycle when it starts.
 */
export function startLifecycleAfterCommit(deps: Pick<AppDeps, 'temporal' | 'logger'>, p: ProvisionedWorkspace): void {
  deps.temporal
    .startSubscriptionLifecycle({ subscriptionId: p.subscription.id, workspaceId: p.workspaceId, expiresAt: p.subscription.expiresAt.toISOString() })
    .catch((err: unknown) =>
      deps.logger.warn({ err, subscriptionId: p.subscription.id }, 'subscription lifecycle not started; the worker reconciles it'),
    );
}
