/**
 * What an adapter throws when a send did not happen (docs/outbound.md). `transient` failures are retried
 * with backoff by the delivery workflow; permanent ones mark the message failed at once with `message`
 * (pt-BR, shown to the agent). `disconnect` says the channel's credentials were refused: the channel is
 * marked disconnected as well.
 */
export class ChannelSendError extends Error {
  readonly transient: boolean;
  readonly disconnect: boolean;
  readonly code: string | number | null;
  readonly retryAfterMs: number | null;

  constructor(message: string, options: { transient: boolean; disconnect?: boolean; code?: string | number | null; retryAfterMs?: number | null }) {
    super(message);
    this.name = 'ChannelSendError';
    this.transient = options.transient;
    this.disconnect = options.disconnect ?? false;
    this.code = options.code ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}
