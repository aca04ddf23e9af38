import type { CsatScale, CsatSettingsReq } from '../../../api/csat/schema';
import { api } from '../providers/httpClient';

/** A channel's survey as GET/PUT /api/csat/channels/{id} answer it (api/csat/settings.ts). */
export interface CsatChannelSettings {
  channelId: number;
  channelType: string;
  cloud: boolean;
  enabled: boolean;
  scale: CsatScale;
  question: string;
  thanks: string;
  template: { name: string; language: string; header: Record<string, string>; body: Record<string, string> } | null;
}

export const csatKeys = {
  settings: (channelId: number) => ['csat', 'settings', channelId] as const,
};

export const csatApi = {
  settings: (channelId: number, signal?: AbortSignal) => api<CsatChannelSettings>(`/csat/channels/${channelId}`, { signal }),
  save: (channelId: number, body: CsatSettingsReq) => api<CsatChannelSettings>(`/csat/channels/${channelId}`, { method: 'PUT', body }),
};

/** GET /api/report/csat (api/csat/reports.ts). */
export interface CsatFigures {
  average: number | null;
  count: number;
  distribution: { rating: number; count: number }[];
  satisfied: number | null;
}
export interface CsatReport {
  summary: CsatFigures & { sent: number; answeredOfSent: number; answerRate: number | null; skipped: number };
  rows: (CsatFigures & { period: string; periodFrom: string; periodTo: string; label: string; labelLong: string })[];
  agents: (CsatFigures & { id: number | null; name: string | null })[];
  period: { from: string; to: string; frequency: string; timeZone: string };
  ownOnly: boolean;
}
/** GET /api/report/csat/calls: the rated calls behind a figure. */
export interface CsatCallRow {
  callId: number;
  protocol: number | null;
  conversationId: number;
  customerName: string | null;
  channel: string;
  channelName: string;
  operatorId: number | null;
  operatorName: string | null;
  rating: number;
  comment: string | null;
  answeredAt: string;
}
export interface CsatDrill {
  rating?: number;
  agent?: number;
  range?: { from: string; to: string };
  label: string;
}
