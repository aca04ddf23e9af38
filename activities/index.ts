import type { ActivityDeps } from './deps';
import { expireSubscription } from './subscription/expireSubscription';
import { deliverWebhook, type WebhookDeliveryOptions } from './webhooks/deliverWebhook';
import { botActivities } from './bots/botActivities';
import type { BotActivityOptions } from './bots/deps';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, bound to its dependencies (the workflows see only the type). */
export function createActivities(deps: ActivityDeps, options: { webhooks?: Partial<WebhookDeliveryOptions>; bots?: Partial<BotActivityOptions> } = {}) {
  return {
    expireSubscription: expireSubscription(deps),
    deliverWebhook: deliverWebhook(deps, options.webhooks),
    ...botActivities(deps, options.bots),
  };
}

export type Activities = ReturnType<typeof createActivities>;
