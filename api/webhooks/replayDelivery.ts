import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { findScoped } from '../db/scope';
import { WebhookDelivery } from '../models/WebhookDelivery';
import { startDelivery } from './startDelivery';

/**
 * 'Reenviar': the same delivery (same webhook-id, so a receiver that keeps ids can tell) goes out again
 * with a fresh attempt budget. A delivery still being retried is left to its running workflow. When
 * Temporal cannot be reached right now the row stays pending and unstarted, and the sweep sends it.
 */
export async function replayDelivery(deps: Pick<AppDeps, 'knex' | 'logger' | 'temporal'>, actor: Actor, id: number): Promise<WebhookDelivery> {
  const delivery = await findScoped<WebhookDelivery>(WebhookDelivery, actor, id);
  const finished = delivery.status !== 'pending';
  if (finished) {
    await delivery
      .$query(deps.knex)
      .patch({ status: 'pending', attempts: 0, lastError: null, lastStatusCode: null, deliveredAt: null, nextAttemptAt: new Date(), workflowStartedAt: null } as Partial<WebhookDelivery>);
  }
  await startDelivery(deps, Number(delivery.id), { replaceFinished: finished });
  return findScoped<WebhookDelivery>(WebhookDelivery, actor, id);
}
