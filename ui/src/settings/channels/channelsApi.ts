import type { WidgetChannelReq, WidgetChannelUpdateReq, WidgetSettings } from '../../../../api/channels/widget/schema';
import { api } from '../../providers/httpClient';

/** A channel as GET /integrations/channel and /integrations/widget answer it (docs/api/inbox.md). */
export interface Channel {
  id: number;
  channelId: string;
  platformId: number;
  description: string;
  name: string;
  phone: string | null;
  status: string;
  /** Why it is in that status (api/channels/channelStatus.ts); null when the status says it all. */
  statusReason?: string | null;
  identifier: string;
  avatar: string | null;
  createdAt: string;
}

/** A widget as /integrations/widget/:id answers it: the channel and the widget's settings. */
export type WidgetChannel = Channel & Partial<WidgetSettings>;

/** Channel settings calls (SPEC §7 Channels). */
export const channelsApi = {
  /** Every channel of the workspace; a react-query queryFn as it is (its signal cancels the call). */
  list: (ctx?: { signal?: AbortSignal }) => api<Channel[]>('/integrations/channel?limit=1000', { signal: ctx?.signal }),
  getWidget: (id: number) => api<WidgetChannel>(`/integrations/widget/${id}`),
  createWidget: (body: WidgetChannelReq) => api<WidgetChannel>('/integrations/widget', { method: 'POST', body }),
  updateWidget: (id: number, body: WidgetChannelUpdateReq) => api<WidgetChannel>(`/integrations/widget/${id}`, { method: 'PUT', body }),
  deleteWidget: (id: number) => api<Channel>(`/integrations/widget/${id}`, { method: 'DELETE' }),
};

/** The one tag a site pastes to get the widget; the script's origin is the Balcão server. */
export function installSnippet(identifier: string, origin = window.location.origin): string {
  return `<script src="${origin}/widget.js" data-identifier="${identifier}" async></script>`;
}
