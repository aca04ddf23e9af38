import type { QueryClient } from '@tanstack/react-query';
import type { Campaign, CampaignPage, CampaignProgress } from './types';

/** Final statuses (campaignsApi's FINAL_STATUSES; this module stays free of the browser-only client). */
const FINAL = new Set(['finished_success', 'finished_fail', 'canceled']);

/** Puts a campaign's progress (or a saved campaign) into every cached list page and its detail. */
export function applyCampaign(qc: QueryClient, change: CampaignProgress | Campaign): void {
  const merge = (c: Campaign): Campaign => {
    if (c.id !== change.id) return c;
    // A save's answer may arrive after newer live events: a finished campaign stays finished and the
    // sent count never goes back (the refetch after a save settles the rest).
    if (FINAL.has(c.status) && !FINAL.has(change.status)) return c;
    if (change.totalNumbersExecuted < c.totalNumbersExecuted && change.totalNumbers === c.totalNumbers) return { ...c, ...change, totalNumbersExecuted: c.totalNumbersExecuted, completion: c.completion };
    return { ...c, ...change };
  };
  qc.setQueriesData<CampaignPage>({ queryKey: ['campaigns', 'list'] }, (page) => (page ? { ...page, data: page.data.map(merge) } : page));
  qc.setQueryData<Campaign>(['campaigns', 'one', change.id], (c) => (c ? merge(c) : c));
}
