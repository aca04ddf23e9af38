/** The idempotency key of one outbound message: the same on every attempt of its delivery (docs/outbound.md). */
export function outboundIdempotencyKey(messageId: number): string {
  return `balcao-msg-${messageId}`;
}
