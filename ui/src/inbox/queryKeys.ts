/** react-query keys of the inbox; everything under ['inbox'] is dropped on a workspace switch with the rest of the cache. */
export const inboxKeys = {
  all: ['inbox'] as const,
  lists: () => ['inbox', 'list'] as const,
  list: (segment: string, query: string) => ['inbox', 'list', segment, query] as const,
  counter: () => ['inbox', 'counter'] as const,
  conversation: (id: number) => ['inbox', 'conversation', id] as const,
  messages: (id: number) => ['inbox', 'messages', id] as const,
  /** The contact panel's customer and its media (contact/contactApi.ts); live events keep them current. */
  customer: (id: number) => ['inbox', 'customer', id] as const,
  customerMedia: (id: number) => ['inbox', 'customerMedia', id] as const,
  tags: () => ['inbox', 'ref', 'tags'] as const,
  agents: () => ['inbox', 'ref', 'agents'] as const,
  groups: () => ['inbox', 'ref', 'groups'] as const,
  bots: () => ['inbox', 'ref', 'bots'] as const,
};
