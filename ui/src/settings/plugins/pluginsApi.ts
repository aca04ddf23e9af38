import { api } from '../../providers/httpClient';
import type { PluginInfo } from '../../inbox/plugins/protocol';

/** PUT /api/plugin/:id with regenerateSecret (docs/plugins.md): a new authSecret. */
export const regeneratePluginSecret = (id: number) => api<PluginInfo>(`/plugin/${id}`, { method: 'PUT', body: { regenerateSecret: true } });

/** SPEC §9: plugin endpoints are shown truncated at 85 characters (the ellipsis included) in the list. */
export function truncateEndpoint(endpoint: string, max = 85): string {
  return endpoint.length > max ? `${endpoint.slice(0, max - 1)}…` : endpoint;
}
