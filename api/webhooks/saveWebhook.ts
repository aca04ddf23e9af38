import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { validateUserUrl } from '../http/guardedFetch';
import { Webhook, type WebhookEvent } from '../models/Webhook';
import { findWebhook } from './queries';
import { WEBHOOK_EVENT_NAMES, type WebhookSettings } from './schema';
import { newWebhookSecret } from './secret';

/**
 * PUT /webhook: creates the workspace's webhook (with a new signing secret) or updates it. Saving again
 * re-enables an endpoint that a 410 had disabled: the manager has looked at it.
 */
export async function saveWebhook(deps: Pick<AppDeps, 'knex'>, actor: Actor, input: WebhookSettings): Promise<Webhook> {
  const reason = await validateUserUrl(input.webhook);
  if (reason) throw errors.field('webhook', reason);
  const subscriptions = WEBHOOK_EVENT_NAMES.filter((e) => input.subscriptions[e]) as WebhookEvent[];
  const email = input.email ? input.email : null;
  return deps.knex.transaction(async (trx) => {
    // Serialises two first saves of the same workspace, so it never ends up with two webhooks.
    await trx('workspaces').where({ id: actor.workspaceId }).forUpdate().first('id');
    const existing = await findWebhook(actor, trx);
    if (!existing) {
      return Webhook.query(trx).insertAndFetch({ workspaceId: actor.workspaceId, url: input.webhook, email, subscriptions, secret: newWebhookSecret() } as Partial<Webhook>);
    }
    return existing.$query(trx).patchAndFetch({ url: input.webhook, email, subscriptions, disabledAt: null, failureCount: 0, updatedAt: new Date() } as Partial<Webhook>);
  });
}

/** POST /webhook/secret: a new signing secret; deliveries signed from now on use it. */
export async function regenerateWebhookSecret(deps: Pick<AppDeps, 'knex'>, actor: Actor): Promise<Webhook> {
  return deps.knex.transaction(async (trx) => {
    const existing = await findWebhook(actor, trx);
    if (!existing) throw errors.notFound('Webhook não configurado.');
    return existing.$query(trx).patchAndFetch({ secret: newWebhookSecret(), updatedAt: new Date() } as Partial<Webhook>);
  });
}
