import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { contractKeys } from './contractsApi';

/** The event api/contracts/realtime.ts publishes when contracts change status. */
const CONTRACT_STATUS_EVENT = 'contract.status';
/** An import of 20 files sends 20 events: the lists are read again at most this often. */
const REFRESH_MS = 500;

/** `contract.status` keeps /contracts live: the lists and the open detail are read again after a burst of events. */
export function useContractsLive(): void {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvent((event) => {
    if (event.event !== CONTRACT_STATUS_EVENT || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void qc.invalidateQueries({ queryKey: contractKeys.all });
    }, REFRESH_MS);
  });
}
