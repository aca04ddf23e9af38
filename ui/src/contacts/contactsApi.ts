import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ContactChannelType } from '../../../api/contacts/schema';
import { api, request } from '../providers/httpClient';
import { apiList } from '../inbox/contact/listApi';

/** A row of GET /customer (api/customers/listContacts.ts). */
export interface ContactRow {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  createdAt: string;
  channels: { type: string; label: string }[];
}

/** POST /customer/import/preview (api/customers/importContacts.ts). */
export interface ImportPreviewView {
  columns: { header: string; field: string | null }[];
  rows: { line: number; name: string | null; phone: string | null; email: string | null; errors: string[]; action: 'create' | 'update' | 'skip'; customerId: number | null }[];
  summary: { create: number; update: number; skip: number };
}
export interface ImportResult {
  create: number;
  update: number;
  skip: number;
}

/** What the list's filter bar holds. */
export interface ContactFilters {
  query: string;
  channel: ContactChannelType | '';
  tag: number | '';
  from: string;
  to: string;
}

export const EMPTY_FILTERS: ContactFilters = { query: '', channel: '', tag: '', from: '', to: '' };

export const contactKeys = {
  list: (f: ContactFilters, page: number) => ['contacts', 'list', f, page] as const,
  all: ['contacts'] as const,
};

/** `enabled` false while the filters cannot be asked (an 'Até' before the 'De'): the page says why instead. */
export function useContacts(f: ContactFilters, page: number, pageSize: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: contactKeys.list(f, page),
    queryFn: ({ signal }) =>
      apiList<ContactRow>('/customer', { query: f.query.trim() || undefined, channels: f.channel || undefined, tags: f.tag || undefined, from: f.from || undefined, to: f.to || undefined, limit: pageSize, offset: page * pageSize }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTags() {
  return useQuery({
    queryKey: ['contacts', 'tags'],
    queryFn: async ({ signal }) => (await apiList<{ id: number; name: string }>('/label', { limit: 1000 }, signal)).data,
    staleTime: 60_000,
  });
}

interface ChannelRow {
  id: number;
  channelId: string;
}

export const contactsApi = {
  preview: (content: string) => api<ImportPreviewView>('/customer/import/preview', { method: 'POST', body: { content } }),
  commit: (content: string) => api<ImportResult>('/customer/import', { method: 'POST', body: { content } }),
  /**
   * The reports' contacts export (POST /report/customer/export/email, docs/reports.md "Exports"), with the
   * page's period and channel: the channel type becomes the workspace's channels of that type. Resolves to
   * the address the mail goes to.
   */
  exportByEmail: async (f: ContactFilters): Promise<string> => {
    const q = new URLSearchParams();
    if (f.from || f.to) {
      q.set('from', f.from || f.to);
      q.set('to', f.to || f.from);
    }
    if (f.channel) {
      const channels = await api<ChannelRow[]>('/integrations/channel?limit=1000');
      const ids = channels.filter((c) => c.channelId === f.channel).map((c) => c.id);
      // No channel of that type: nothing would match, and an empty list means every channel to the report.
      q.set('channels', ids.length ? ids.join(',') : '0');
    }
    const res = await request(`/api/report/customer/export/email?${q.toString()}`, { method: 'POST' });
    return (res.json as { data: { email: string } }).data.email;
  },
};
