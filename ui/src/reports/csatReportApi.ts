import { request } from '../providers/httpClient';
import { filterQuery, type ReportFilters } from './reportsApi';
import type { CsatCallRow, CsatDrill, CsatReport } from '../csat/csatApi';

/** The satisfaction report's calls (docs/csat.md "Reports"), with the reports' filters. */
export const csatReportKeys = {
  report: (f: ReportFilters) => ['reports', 'csat', f] as const,
  calls: (f: ReportFilters, drill: CsatDrill | null) => ['reports', 'csat-calls', f, drill?.rating, drill?.agent, drill?.range] as const,
};

export const csatReportApi = {
  report: async (f: ReportFilters, signal?: AbortSignal) => ((await request(`/api/report/csat?${filterQuery(f).toString()}`, { signal })).json as { data: CsatReport }).data,
  calls: async (f: ReportFilters, drill: CsatDrill, signal?: AbortSignal) => {
    const q = filterQuery(drill.agent !== undefined ? { ...f, agents: [drill.agent] } : f, drill.range);
    if (drill.rating !== undefined) q.set('rating', String(drill.rating));
    q.set('limit', '200');
    return (await request(`/api/report/csat/calls?${q.toString()}`, { signal })).json as { data: CsatCallRow[]; matchCount: number; hiddenCount: number };
  },
};
