import type { CampaignCreateReq } from '../../../api/campaigns/schema';
import type { FileEntry } from '../inbox/types';
import { api, request } from '../providers/httpClient';
import type { Campaign, CampaignPage, CampaignPlan, NumberStatus, NumbersPage, CampaignStatus } from './types';

export * from './types';

/** SPEC §9: floor of sent/total×100, a total of 0 divides by 1 (the same rule as the api's presenter). */
export function completionPercent(executed: number, total: number): number {
  return Math.floor((executed / (total || 1)) * 100);
}

export const FINAL_STATUSES: readonly CampaignStatus[] = ['finished_success', 'finished_fail', 'canceled'];

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (page: number) => ['campaigns', 'list', page] as const,
  one: (id: number) => ['campaigns', 'one', id] as const,
  numbers: (id: number) => ['campaigns', 'numbers', id] as const,
  plan: ['campaigns', 'plan'] as const,
};

/** SPEC §7 Campaign calls. */
/** A numbers file as POST /campaign/numbers-file answers it: the stored file with its column headers and first row (api/campaigns/fileColumns.ts). */
export type NumbersFileEntry = FileEntry & { columns?: { headers: string[] | null; firstRow: string[] | null } | null };

export const campaignsApi = {
  async uploadNumbersFile(file: File): Promise<NumbersFileEntry | undefined> {
    const form = new FormData();
    form.append('file0', file, file.name);
    return api<NumbersFileEntry>('/campaign/numbers-file', { method: 'POST', body: form });
  },
  async list(page: number, perPage: number, signal?: AbortSignal): Promise<CampaignPage> {
    const res = await request(`/api/campaign?limit=${perPage}&offset=${page * perPage}`, { signal });
    const json = res.json as { data?: Campaign[]; matchCount?: number } | Campaign[] | undefined;
    if (Array.isArray(json)) return { data: json, total: json.length };
    return { data: json?.data ?? [], total: Number(json?.matchCount ?? json?.data?.length ?? 0) };
  },
  get: (id: number, signal?: AbortSignal) => api<Campaign>(`/campaign/${id}`, { signal }),
  /** Whether the plan has campaigns at all, asked before the wizard is walked (a trial has none). */
  plan: (signal?: AbortSignal) => api<CampaignPlan>('/campaign/plan', { signal }),
  async numbers(id: number, status: NumberStatus | '', limit: number, offset: number, signal?: AbortSignal): Promise<NumbersPage> {
    const q = new URLSearchParams({ limit: String(limit), offset: String(offset) });
    if (status) q.set('status', status);
    const res = await request(`/api/campaign/${id}/numbers?${q.toString()}`, { signal });
    return res.json as NumbersPage;
  },
  create: (body: CampaignCreateReq) => api<Campaign>('/campaign', { method: 'POST', body }),
  /** SPEC §7: a status change or a rename is a save with the id; the answer replaces the item. */
  save: (id: number, change: { name: string } | { status: 'paused' | 'waiting_processing' | 'canceled' }) =>
    api<Campaign>('/campaign', { method: 'POST', body: { id, ...change } }),
  /** A short-lived signed link to the report, for a new window or a plain download. */
  reportLink: (id: number) => api<{ url: string }>(`/report/campaign/${id}/link`, { method: 'POST' }),
};
