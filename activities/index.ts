import type { ActivityDeps } from './deps';
import { expireSubscription } from './subscription/expireSubscription';
import { deliverWebhook, type WebhookDeliveryOptions } from './webhooks/deliverWebhook';
import { sendChannelMessage, type ChannelSendOptions } from './channels/sendChannelMessage';
import { botActivities } from './bots/botActivities';
import type { BotActivityOptions } from './bots/deps';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, bound to its dependencies (the workflows see only the type). */
export function createActivities(deps: ActivityDeps, options: { webhooks?: Partial<WebhookDeliveryOptions>; bots?: Partial<BotActivityOptions>; channels?: Partial<ChannelSendOptions> } = {}) {
  return {
    expireSubscription: expireSubscription(deps),
    deliverWebhook: deliverWebhook(deps, options.webhooks),
    sendChannelMessage: sendChannelMessage(deps, options.channels),
    ...botActivities(deps, options.bots),
  };
}

export type Activities = ReturnType<typeof createActivities>;
