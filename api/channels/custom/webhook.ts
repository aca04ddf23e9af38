import type { ChannelDeps, ChannelRecord } from '../adapter';
import { receiveInbound, type InboundDeps } from '../../inbound/receiveInbound';
import type { InboundResult } from '../../conversations/types';
import type { CustomInbound } from './schema';

/**
 * A verified, validated inbound message of a custom channel, through the shared idempotent pipeline:
 * the company's `id` is the external id, so a repeat (their retry, a replay inside the 5-minute window)
 * stores nothing new. Text content becomes one insert; Delta ops keep their inserts (attributes are not
 * kept, as for every channel). `replyTo` names one of this conversation's messages by its external id
 * (theirs, or the `webhook-id` of ours).
 */
export async function handleCustomInbound(deps: InboundDeps & ChannelDeps, channel: ChannelRecord, body: CustomInbound): Promise<InboundResult> {
  const content = typeof body.content === 'string' ? [{ insert: body.content }] : body.content.map((op) => ({ insert: op.insert }));
  return receiveInbound(deps, {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId: body.id,
    identity: { externalId: body.sender.id, name: body.sender.name ?? null, phone: body.sender.phone ?? null, email: body.sender.email ?? null, avatar: body.sender.avatar ?? null },
    content,
    replyToExternalId: body.replyTo ?? null,
  });
}
