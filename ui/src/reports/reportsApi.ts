import { useCallback, useState } from 'react';
import { api, request } from '../providers/httpClient';

/** The report calls of docs/reports.md (times in seconds; null when nothing was measured). */
export type Frequency = 'daily' | 'weekly' | 'monthly';
export type Metric = 'new' | 'resolved' | 'tme' | 'tmr' | 'tma';

export interface Times {
  firstTimeResponse: number | null;
  firstTimeResponseMedian: number | null;
  firstTimeResponseP90: number | null;
  timeResponse: number | null;
  timeResponseMedian: number | null;
  timeResponseP90: number | null;
  resolutionTime: number | null;
  resolutionTimeMedian: number | null;
  resolutionTimeP90: number | null;
}
export interface ReportRow extends Times {
  period: string;
  periodFrom: string;
  periodTo: string;
  label: string;
  labelLong: string;
  newConversations: number;
  resolvedConversations: number;
}
export interface Report {
  rows: ReportRow[];
  summary: Times & { newConversations: number; resolvedConversations: number };
  period: { from: string; to: string; frequency: Frequency; timeZone: string };
  businessHours: boolean;
  ownOnly: boolean;
}
export interface AgentRow extends Times {
  id: number;
  name: string;
  firstName: string;
  resolvedConversations: number;
  totalConversations: number;
}
export interface Dashboard {
  customerDistribution: { channel: string; count: number }[];
  weekConversations: { weekday: string; day: string; new: number; resolved: number }[];
  agents: { connected: number; away?: number; connectedToday: number; total: number };
  inbox: { waiting: number; assigned: number; resolvedToday: number };
  averageTime: { waiting: number | null; resolution: number | null };
  oldestWaiting: { channelId: number; channelName: string; channel: string; conversationId: number; customerName: string | null; waitingSince: string }[];
  today: string;
  ownOnly: boolean;
}
export interface CallRow {
  callId: number;
  protocol: number | null;
  conversationId: number;
  customerName: string | null;
  channel: string;
  channelName: string;
  operatorName: string | null;
  at: string;
  seconds: number | null;
}
export interface CallsPage {
  data: CallRow[];
  matchCount: number;
  hiddenCount: number;
}

/** What the filter panel holds; remembered between visits (SPEC: the period picker remembers the last choice). */
export interface ReportFilters {
  days: 7 | 30 | 90;
  frequency: Frequency;
  channels: number[];
  groups?: number[];
  agents?: number[];
  tags?: number[];
  /** Business-hours mode (docs/reports.md): only time inside the workspace's open hours counts. */
  businessHours?: boolean;
}
export type IdFilter = 'channels' | 'groups' | 'agents' | 'tags';
const STORAGE_KEY = 'balcao.reports.filters';
const DEFAULT_FILTERS: ReportFilters = { days: 7, frequency: 'daily', channels: [] };

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((n): n is number => Number.isInteger(n)) : []);

function readFilters(): ReportFilters {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<ReportFilters> | null;
    if (!raw) return DEFAULT_FILTERS;
    return {
      days: raw.days === 30 || raw.days === 90 ? raw.days : 7,
      frequency: raw.frequency === 'weekly' || raw.frequency === 'monthly' ? raw.frequency : 'daily',
      channels: ids(raw.channels),
      groups: ids(raw.groups),
      agents: ids(raw.agents),
      tags: ids(raw.tags),
      businessHours: raw.businessHours === true,
    };
  } catch {
    return DEFAULT_FILTERS;
  }
}

export function useReportFilters(): [ReportFilters, (next: ReportFilters) => void] {
  const [filters, setFilters] = useState<ReportFilters>(readFilters);
  const update = useCallback((next: ReportFilters) => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    setFilters(next);
  }, []);
  return [filters, update];
}

/** The query string of the filters: the api counts the period back from today in the workspace's time zone. */
export function filterQuery(f: ReportFilters, range?: { from: string; to: string }): URLSearchParams {
  const q = new URLSearchParams({ frequency: f.frequency });
  if (range) {
    q.set('from', range.from);
    q.set('to', range.to);
  } else if (f.days !== 7) {
    const to = new Date();
    const from = new Date(to.getTime() - (f.days - 1) * 86_400_000);
    q.set('from', localDay(from));
    q.set('to', localDay(to));
  }
  for (const key of ['channels', 'groups', 'agents', 'tags'] as const) {
    const list = f[key] ?? [];
    if (list.length) q.set(key, list.join(','));
  }
  if (f.businessHours) q.set('businessHours', 'true');
  return q;
}

function localDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function get<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await request(`/api${path}`, { signal });
  return res.json as T;
}

export const reportKeys = {
  report: (f: ReportFilters) => ['reports', 'report', f] as const,
  agents: (f: ReportFilters) => ['reports', 'agents', f] as const,
  dashboard: ['reports', 'dashboard'] as const,
  calls: (f: ReportFilters, metric: Metric, range: { from: string; to: string } | undefined) => ['reports', 'calls', f, metric, range] as const,
};

export const reportsApi = {
  report: async (f: ReportFilters, signal?: AbortSignal) => (await get<{ data: Report }>(`/report?${filterQuery(f).toString()}`, signal)).data,
  agents: async (f: ReportFilters, signal?: AbortSignal) => (await get<{ data: AgentRow[] }>(`/dashboard/agents?${filterQuery(f).toString()}`, signal)).data,
  dashboard: async (signal?: AbortSignal) => (await get<{ data: Dashboard }>('/dashboard', signal)).data,
  calls: async (f: ReportFilters, metric: Metric, range: { from: string; to: string } | undefined, signal?: AbortSignal) => {
    const q = filterQuery(f, range);
    q.set('metric', metric);
    q.set('limit', '200');
    return get<CallsPage>(`/report/calls?${q.toString()}`, signal);
  },
  channels: async (signal?: AbortSignal) => {
    const rows = await api<{ id: number; name: string; description: string }[]>('/integrations/channel?limit=1000', { signal });
    return rows.map((c) => ({ id: c.id, name: c.description || c.name || `#${c.id}` }));
  },
  /** The choices of a filter: channels, groups, members or tags of the workspace. */
  choices: async (key: IdFilter, signal?: AbortSignal): Promise<{ id: number; name: string }[]> => {
    if (key === 'channels') return reportsApi.channels(signal);
    const path = key === 'groups' ? '/group?limit=1000' : key === 'agents' ? '/operator?limit=1000' : '/label?limit=1000';
    const rows = await api<{ id: number; name: string }[]>(path, { signal });
    return rows.map((r) => ({ id: r.id, name: r.name }));
  },
};

/** Seconds as people read them: 45s, 4min 30s, 1h 05min; '-' when nothing was measured (SPEC §2). */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '-';
  const total = Math.round(s);
  if (total < 60) return `${total}s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h === 0) return sec ? `${m}min ${sec}s` : `${m}min`;
  if (h < 48) return `${h}h ${String(m).padStart(2, '0')}min`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export interface CustomerRow {
  id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  channels: { type: string; label: string }[];
}
export interface TagUse {
  id: number;
  name: string;
  color: string;
  textColor: string;
  used: number;
}

export const listsApi = {
  customers: async (f: ReportFilters, created: { from: string; to: string } | undefined, limit: number, offset: number, signal?: AbortSignal) => {
    const q = new URLSearchParams({ limit: String(limit), offset: String(offset) });
    if (created) {
      q.set('from', created.from);
      q.set('to', created.to);
    }
    if (f.channels.length) q.set('channels', f.channels.join(','));
    return get<{ data: CustomerRow[]; matchCount: number; totalCount: number }>(`/report/customer?${q.toString()}`, signal);
  },
  tags: async (f: ReportFilters, signal?: AbortSignal) => (await get<{ data: { rows: TagUse[] } }>(`/report/tags?${filterQuery(f).toString()}`, signal)).data.rows,
};

/** The report paths of the e-mail exports (SPEC §7: the report path + '/export/email'). */
export type ExportKind = 'conversations' | 'team' | 'tags' | 'customers';
const EXPORT_PATHS: Record<ExportKind, string> = {
  conversations: '/report/export/email',
  team: '/dashboard/agents/export/email',
  tags: '/report/tags/export-email',
  customers: '/report/customer/export/email',
};

export interface ReportSchedule {
  id: number;
  kind: ExportKind;
  frequency: 'weekly' | 'monthly';
  recipients: { id: number; name: string | null; email: string | null }[];
  createdAt: string;
}

export const exportsApi = {
  /** Starts the e-mail export; resolves to the address it goes to. */
  email: async (kind: ExportKind, f: ReportFilters): Promise<string> => {
    const res = await request(`/api${EXPORT_PATHS[kind]}?${filterQuery(f).toString()}`, { method: 'POST' });
    return (res.json as { data: { email: string } }).data.email;
  },
  schedules: async (signal?: AbortSignal) => (await get<{ data: ReportSchedule[] }>('/report/schedules', signal)).data,
  createSchedule: (kind: ExportKind, frequency: 'weekly' | 'monthly', recipients: number[], f: ReportFilters) =>
    api<ReportSchedule>('/report/schedules', {
      method: 'POST',
      body: { kind, frequency, recipients, filters: { frequency: f.frequency, channels: f.channels, groups: f.groups ?? [], agents: f.agents ?? [], tags: f.tags ?? [], businessHours: Boolean(f.businessHours) } },
    }),
  deleteSchedule: (id: number) => api<{ id: number }>(`/report/schedules/${id}`, { method: 'DELETE' }),
};
