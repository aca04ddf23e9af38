import type { PluginCreateReq, PluginUpdateReq } from '../../../../api/plugins/schema';
import { api } from '../../providers/httpClient';
import type { PluginInfo } from '../../inbox/plugins/protocol';

export const pluginsSettingsKey = ['settings', 'plugins'] as const;

/** /api/plugin (docs/plugins.md). */
export const pluginsApi = {
  list: () => api<PluginInfo[]>('/plugin?limit=100'),
  get: (id: number) => api<PluginInfo>(`/plugin/${id}`),
  create: (body: PluginCreateReq) => api<PluginInfo>('/plugin', { method: 'POST', body }),
  update: (id: number, body: PluginUpdateReq) => api<PluginInfo>(`/plugin/${id}`, { method: 'PUT', body }),
  remove: (id: number) => api<PluginInfo>(`/plugin/${id}`, { method: 'DELETE' }),
};

/** SPEC §5: plugin endpoints are shown truncated at 85 characters in the list. */
export function truncateEndpoint(endpoint: string, max = 85): string {
  return endpoint.length > max ? `${endpoint.slice(0, max - 1)}…` : endpoint;
}
