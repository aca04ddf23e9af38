import type { AppDeps } from '../../deps';
import type { ChannelRecord } from '../adapter';
import { HUMAN_AGENT_WINDOW_MS, STANDARD_WINDOW_MS, windowDecision } from './send';
import type { MetaWindow } from './windowView';

export type { MetaWindow };

export const isMetaChannel = (channel: Pick<ChannelRecord, 'type'>): channel is Pick<ChannelRecord, 'type'> & { type: 'facebook' | 'instagram' } =>
  channel.type === 'facebook' || channel.type === 'instagram';

/**
 * GET /inbox/meta-window/{id}: what an agent's reply in a Messenger or Instagram conversation would do now
 * (docs/channels/meta.md "Window"), read with the same rule as the delivery path (`windowDecision`):
 * - `open`: within 24 h of the customer's last message; `closesAt` is the end of those 24 h;
 * - `human_agent`: past 24 h, up to 7 days, and the app has the Human Agent feature: replies go with the
 *   HUMAN_AGENT tag until `closesAt`;
 * - `closed`: nothing the agent writes would be accepted (`reason` says why); `closesAt` is null.
 * `humanAgentTag` says whether the HUMAN_AGENT stretch exists at all, so `open` can tell what follows it.
 */
export async function metaWindow(
  deps: Pick<AppDeps, 'knex' | 'config'>,
  conversationId: number,
  channel: Pick<ChannelRecord, 'type'> & { type: 'facebook' | 'instagram' },
  now = new Date(),
): Promise<MetaWindow> {
  const last = (await deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).max('created_at as at').first()) as { at: Date | string | null } | undefined;
  const lastAt = last?.at ? new Date(last.at) : null;
  const humanAgentTag = deps.config.metaHumanAgentTag;
  // The composer is a person writing: the HUMAN_AGENT stretch applies (never to a bot's message).
  const decision = windowDecision(lastAt, now, { humanAgentTag, byPerson: true });
  const base = { platform: channel.type, lastCustomerMessageAt: lastAt ? lastAt.toISOString() : null, humanAgentTag };
  if (decision.kind === 'closed') return { ...base, kind: 'closed', closesAt: null, reason: decision.reason };
  const span = decision.kind === 'response' ? STANDARD_WINDOW_MS : HUMAN_AGENT_WINDOW_MS;
  return { ...base, kind: decision.kind === 'response' ? 'open' : 'human_agent', closesAt: new Date(lastAt!.getTime() + span).toISOString(), reason: null };
}
