import { adapterFor, registerAdapter, unregisterAdapter, type ChannelAdapter, type ChannelType, type OutboundMessage } from '../../api/channels/adapter';

export interface FakeAdapter extends ChannelAdapter {
  sent: OutboundMessage[];
  deleted: string[];
  composed: string[];
  /** Make the next sends throw, as a provider outage would. */
  failing: boolean;
}

/** A channel adapter that records what the inbox hands it (the provider side is not the subject here). */
export function fakeAdapter(type: ChannelType, options: { canReply?: boolean; canDelete?: boolean } = {}): FakeAdapter {
  const adapter: FakeAdapter = {
    type,
    canReply: options.canReply ?? true,
    canDelete: options.canDelete ?? true,
    sent: [],
    deleted: [],
    composed: [],
    failing: false,
    async send(_deps, _channel, message) {
      if (adapter.failing) throw new Error('provedor fora do ar');
      adapter.sent.push(message);
      return { externalId: `${type}-${message.messageId}` };
    },
    async deleteMessage(_deps, _channel, externalId) {
      adapter.deleted.push(externalId);
    },
    async composing(_deps, _channel, recipient) {
      adapter.composed.push(recipient);
    },
  };
  return adapter;
}

/** Registers adapters for a test file; the returned function puts back what was registered before. */
export function installAdapters(...adapters: ChannelAdapter[]): () => void {
  const previous = adapters.map((a) => adapterFor(a.type));
  for (const a of adapters) registerAdapter(a);
  return () => adapters.forEach((a, i) => (previous[i] ? registerAdapter(previous[i]) : unregisterAdapter(a.type)));
}
