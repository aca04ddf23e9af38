import { api } from '../../providers/httpClient';
import type { BotChoices, BotDoc, BotRow, Choice } from './botTypes';

export { toDoc, type BotChoices, type BotDoc, type BotRow, type Choice } from './botTypes';

export const botsKey = ['settings', 'bots'] as const;
export const botChoicesKey = [...botsKey, 'choices'] as const;

const names = (rows: { id: number; name?: string | null; description?: string | null; email?: string }[]): Choice[] =>
  rows.map((r) => ({ id: r.id, name: r.name || r.description || r.email || `#${r.id}` }));

export const botApi = {
  list: () => api<BotRow[]>('/bot?limit=1000'),
  get: (id: number) => api<BotRow>(`/bot/${id}`),
  create: (doc: BotDoc) => api<BotRow>('/bot', { method: 'POST', body: doc }),
  /** SPEC §7: PUT sends the whole bot (the list's active toggle too). */
  update: (id: number, doc: BotDoc) => api<BotRow>(`/bot/${id}`, { method: 'PUT', body: doc }),
  remove: (id: number) => api<BotRow>(`/bot/${id}`, { method: 'DELETE' }),
  choices: async (): Promise<BotChoices> => {
    const [channels, businessHours, tags, groups, agents] = await Promise.all([
      api<{ id: number; name: string; description: string }[]>('/integrations/channel?limit=1000'),
      api<{ id: number; name: string }[]>('/business-hours?limit=1000'),
      api<{ id: number; name: string }[]>('/label?limit=1000'),
      api<{ id: number; name: string }[]>('/group?limit=1000'),
      api<{ id: number; name: string; email: string }[]>('/operator?limit=1000'),
    ]);
    // A channel is known by its description (the name the admin gave it), like in the channel settings.
    return { channels: channels.map((c) => ({ id: c.id, name: c.description || c.name || `#${c.id}` })), businessHours: names(businessHours), tags: names(tags), groups: names(groups), agents: names(agents) };
  },
};
