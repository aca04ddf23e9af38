/** The Standard Webhooks `webhook-id` of a delivery: the same on every attempt and on 'Reenviar'. */
export function webhookMessageId(deliveryId: number | string): string {
  return `msg_${deliveryId}`;
}
