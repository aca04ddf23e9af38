import type { ActivityDeps } from './deps';
import { expireSubscription } from './subscription/expireSubscription';
import { billingActivities, type BillingActivityOptions } from './subscription/billingActivities';
import { deliverWebhook, type WebhookDeliveryOptions } from './webhooks/deliverWebhook';
import { sendChannelMessage, type ChannelSendOptions } from './channels/sendChannelMessage';
import { botActivities } from './bots/botActivities';
import { defaultQrSessionOptions, whatsappQrSession, type WhatsappQrSessionOptions } from './channels/whatsappQrSession';
import { reportWhatsappConnection } from './channels/whatsappConnectionStatus';
import { whatsappQrSocketCall } from './channels/whatsappQrSocketCall';
import { QrLiveSockets } from './channels/whatsapp/liveSockets';
import type { BotActivityOptions } from './bots/deps';
import { campaignActivities, type CampaignActivityOptions } from './campaigns/campaignActivities';
import { reportActivities } from './reports/reportActivities';
import { contractActivities } from './contracts/contractActivities';
import { scheduleActivities } from './schedules/scheduleActivities';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, bound to its dependencies (the workflows see only the type). */
export function createActivities(deps: ActivityDeps, options: { webhooks?: Partial<WebhookDeliveryOptions>; bots?: Partial<BotActivityOptions>; channels?: Partial<ChannelSendOptions>; whatsappQr?: Partial<WhatsappQrSessionOptions>; campaigns?: Partial<CampaignActivityOptions>; billing?: Partial<BillingActivityOptions> } = {}) {
  // The QR sockets this process holds (the worker passes its own, with the queue only it polls).
  const qrSockets = options.whatsappQr?.sockets ?? new QrLiveSockets(null);
  return {
    expireSubscription: expireSubscription(deps),
    ...billingActivities(deps, options.billing),
    deliverWebhook: deliverWebhook(deps, options.webhooks),
    sendChannelMessage: sendChannelMessage(deps, options.channels, qrSockets),
    ...botActivities(deps, options.bots),
    whatsappQrSession: whatsappQrSession(deps, { ...defaultQrSessionOptions(deps, qrSockets), ...options.whatsappQr, sockets: qrSockets }),
    whatsappQrSocketCall: whatsappQrSocketCall(qrSockets),
    reportWhatsappConnection: reportWhatsappConnection(deps),
    ...campaignActivities(deps, options.campaigns, qrSockets),
    ...reportActivities(deps),
    ...contractActivities(deps),
    ...scheduleActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
