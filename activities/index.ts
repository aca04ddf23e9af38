import type { ActivityDeps } from './deps';
import { expireSubscription } from './subscription/expireSubscription';
import { deliverWebhook, type WebhookDeliveryOptions } from './webhooks/deliverWebhook';
import { sendChannelMessage, type ChannelSendOptions } from './channels/sendChannelMessage';
import { botActivities } from './bots/botActivities';
import { defaultQrSessionOptions, whatsappQrSession, type WhatsappQrSessionOptions } from './channels/whatsappQrSession';
import { reportWhatsappConnection } from './channels/whatsappConnectionStatus';
import type { BotActivityOptions } from './bots/deps';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, bound to its dependencies (the workflows see only the type). */
export function createActivities(deps: ActivityDeps, options: { webhooks?: Partial<WebhookDeliveryOptions>; bots?: Partial<BotActivityOptions>; channels?: Partial<ChannelSendOptions>; whatsappQr?: Partial<WhatsappQrSessionOptions> } = {}) {
  return {
    expireSubscription: expireSubscription(deps),
    deliverWebhook: deliverWebhook(deps, options.webhooks),
    sendChannelMessage: sendChannelMessage(deps, options.channels),
    ...botActivities(deps, options.bots),
    whatsappQrSession: whatsappQrSession(deps, { ...defaultQrSessionOptions(deps), ...options.whatsappQr }),
    reportWhatsappConnection: reportWhatsappConnection(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
