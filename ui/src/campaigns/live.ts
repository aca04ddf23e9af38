import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeLastConnect, useRealtimeStatus } from '../realtime/RealtimeProvider';
import { applyCampaign } from './applyCampaign';
import { CAMPAIGN_STATUS_EVENT, campaignKeys, type CampaignPage, type CampaignProgress } from './campaignsApi';

const REFRESH_MS = 500;

export { applyCampaign };

/**
 * `campaign.status` (api/campaigns/realtime.ts) keeps the /campaigns list and detail live: status and
 * progress replace the cached values, and the open detail's numbers are read again.
 */
export function useCampaignLive(): void {
  const qc = useQueryClient();
  // A campaign at 80 messages/s sends as many events: what must be read again (the numbers, a list page
  // without the campaign) is read at most every 500 ms, and the last event of a burst always leads to a read.
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  /** Runs `fn` once in the next 500 ms, however many times it is asked for under `key`. */
  const soon = (key: string, fn: () => void) => {
    if (timers.current.has(key)) return;
    timers.current.set(
      key,
      setTimeout(() => {
        timers.current.delete(key);
        fn();
      }, REFRESH_MS),
    );
  };
  // What was read before the connection (or while it was down without a kept session) may have missed
  // events: read it again when the connection comes (back) up.
  const status = useRealtimeStatus();
  const lastConnect = useRealtimeLastConnect();
  const lastStatus = useRef(status);
  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = status;
    if (status !== 'online' || before === 'online') return;
    if (lastConnect() !== 'resumed') void qc.invalidateQueries({ queryKey: campaignKeys.all, predicate: (q) => q.state.dataUpdatedAt > 0 });
  }, [status, qc, lastConnect]);
  useRealtimeEvent((event) => {
    if (event.event !== CAMPAIGN_STATUS_EVENT) return;
    const data = event.data as CampaignProgress | undefined;
    if (!data || typeof data.id !== 'number') return;
    const known = qc.getQueriesData<CampaignPage>({ queryKey: [...campaignKeys.all, 'list'] }).some(([, page]) => page?.data.some((c) => c.id === data.id));
    applyCampaign(qc, data);
    soon(`numbers:${data.id}`, () => void qc.invalidateQueries({ queryKey: campaignKeys.numbers(data.id) }));
    // A campaign created elsewhere (another tab) appears on the list.
    if (!known) soon('list', () => void qc.invalidateQueries({ queryKey: [...campaignKeys.all, 'list'] }));
  });
}
