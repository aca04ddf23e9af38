import getRawBody from 'raw-body';
import type { Context } from 'koa';
import type { HookAnswer, HookInbound, HookRequest, InboundChannelDeps, VerifiedHook } from '../inbound';
import { processStoredHook, storeHook } from './store';

/** A Koa request as a channel's inbound half reads it (api/channels/inbound.ts). */
export function hookRequestOf(ctx: Context, identifier?: string): HookRequest {
  return {
    identifier,
    header: (name) => ctx.get(name) || undefined,
    query: ctx.query,
    rawBody: (limit) => getRawBody(ctx.req, { limit }),
  };
}

/** What the hook store keeps of a body: the provider's `object` (for the eye), the ids and the payload, not the opened lines. */
function objectOf(verified: VerifiedHook): string {
  const p = verified.payload as { object?: unknown; body?: { object?: unknown } } | undefined;
  return String(p?.object ?? p?.body?.object ?? '');
}

/**
 * The one inbound path of a webhook (docs/architecture.md, "How a request flows"): verify through the
 * channel's inbound half (a typed error is the answer), then
 * - `stored` hooks: store the verified body in one insert (hooks/store.ts), answer, and process it right
 *   after the answer; a failure (or a process that died) is left to the sweep, which processes it again;
 * - `processed` hooks: process it now, each message stored idempotently by receiveInbound (inbound_events),
 *   and answer with the outcome.
 * Resolves to the JSON body of the 200.
 */
export async function acceptHook(deps: InboundChannelDeps, inbound: HookInbound, request: HookRequest): Promise<HookAnswer> {
  const verified = await inbound.verify(deps, request);
  const received = inbound.storedAnswer ?? { data: { received: true } };
  if (verified.skip) return received;
  if (inbound.answer === 'processed') return (await inbound.process(deps, verified)) ?? received;
  const source = inbound.source ?? inbound.type;
  const id = await storeHook(deps, source, objectOf(verified), { channelIds: verified.channelIds, payload: verified.payload });
  setImmediate(() => void processStoredHook(deps, id, { source, verified }));
  return received;
}

/** The verification handshake of a hook (`GET` with `hub.verify_token`): the challenge, as text. */
export function answerHandshake(deps: InboundChannelDeps, inbound: HookInbound, request: HookRequest): Promise<string> {
  if (!inbound.handshake) throw new Error(`${inbound.type} has no handshake`);
  return inbound.handshake(deps, request);
}
