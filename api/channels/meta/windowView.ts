/**
 * The answer of GET /inbox/meta-window/{id} (api/channels/meta/window.ts). The inbox imports this type, so
 * this file imports nothing.
 */
export interface MetaWindow {
  kind: 'open' | 'human_agent' | 'closed';
  platform: 'facebook' | 'instagram';
  /** End of the current stretch (24 h for open, 7 days for human_agent); null when closed. */
  closesAt: string | null;
  reason: string | null;
  lastCustomerMessageAt: string | null;
  humanAgentTag: boolean;
}
