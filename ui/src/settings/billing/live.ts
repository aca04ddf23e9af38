import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRealtimeEvent, useRealtimeLastConnect, useRealtimeStatus } from '../../realtime/RealtimeProvider';
import { billingKeys } from './billingApi';

interface InvoicePaid {
  invoiceId?: number;
  transactionId?: number;
}

/**
 * Billing pages follow the workspace's events (docs/billing-api.md "Realtime"): `invoice.paid` and
 * `subscription.updated` reload what they show, no page reload; `onPaid` runs for the invoice paid. After a
 * reconnection the broker did not resume, what changed meanwhile is fetched again.
 */
export function useBillingLive(onPaid?: (paid: InvoicePaid) => void): void {
  const qc = useQueryClient();
  const status = useRealtimeStatus();
  const lastConnect = useRealtimeLastConnect();
  const wasOnline = useRef(false);
  useRealtimeEvent((event) => {
    if (event.event === 'invoice.paid') {
      const paid = (event.data ?? {}) as InvoicePaid;
      if (typeof paid.invoiceId === 'number') void qc.invalidateQueries({ queryKey: billingKeys.invoice(paid.invoiceId) });
      void qc.invalidateQueries({ queryKey: billingKeys.invoices });
      void qc.invalidateQueries({ queryKey: billingKeys.subscription });
      onPaid?.(paid);
    } else if (event.event === 'subscription.updated' || event.event === 'subscription.expired') {
      void qc.invalidateQueries({ queryKey: billingKeys.subscription });
    }
  });
  useEffect(() => {
    if (status !== 'online') return;
    if (wasOnline.current && lastConnect() === 'refetch') void qc.invalidateQueries({ queryKey: ['billing'] });
    wasOnline.current = true;
  }, [status, lastConnect, qc]);
}
