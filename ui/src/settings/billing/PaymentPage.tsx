import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { errorDescriptions } from '../../providers/httpClient';
import { billingApi, billingKeys, pickTransaction, type InvoiceDetail } from './billingApi';
import { formatMoney } from './format';
import { useBillingLive } from './live';
import { BillingTitle, LoadState, planWithBilling, useCanManageBilling } from './parts';
import { BoletoPanel, PixPanel } from './PaymentPanels';
import { PrintStyles } from './PrintStyles';
import { syncSessionSubscription } from './sessionSync';

const t = texts.billing.payment;
/** Without the live event (a lost connection), the page asks again this long after a simulated payment. */
const SIMULATE_FALLBACK_MS = 6000;

function Paid({ detail, transactionId }: { detail: InvoiceDetail; transactionId: number | undefined }) {
  return (
    <Box data-testid="payment-paid" role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5, py: 3 }}>
      <CheckCircle color="success" sx={{ fontSize: 72 }} aria-hidden />
      <Typography variant="h5" component="h2" fontWeight={700}>
        {t.paidTitle}
      </Typography>
      <Typography color="text.secondary">{t.paidText}</Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', justifyContent: 'center', mt: 1 }}>
        <Button variant="contained" component={RouterLink} to={`/invoices/${detail.invoice.id}/${transactionId ?? 0}`}>
          {t.receipt}
        </Button>
        <Button component={RouterLink} to="/settings/billing/license">
          {t.toLicense}
        </Button>
      </Box>
    </Box>
  );
}

function Simulate({ invoiceId, transactionId, onFallback }: { invoiceId: number; transactionId: number; onFallback: () => void }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const simulate = async () => {
    setBusy(true);
    try {
      await billingApi.simulate(invoiceId, transactionId);
      // The page turns paid on `invoice.paid`; this only covers a connection that missed it.
      setTimeout(onFallback, SIMULATE_FALLBACK_MS);
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
    setBusy(false);
  };
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => void simulate()} loading={busy}>
          {t.simulate}
        </Button>
      }
    >
      {t.simulateHint}
    </Alert>
  );
}

/**
 * /settings/billing/payment/{id} (SPEC §2): how to pay invoice {id} — the Pix QR and copy-and-paste code, or
 * the boleto's line, barcode and slip — turning paid by itself on `invoice.paid` (no reload).
 */
export function PaymentPage() {
  const id = Number(useParams().id);
  const qc = useQueryClient();
  const canManage = useCanManageBilling();
  const { data, error, isPending, refetch } = useQuery({ queryKey: billingKeys.invoice(id), queryFn: () => billingApi.invoice(id), enabled: Number.isInteger(id) && id > 0 });
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useBillingLive();

  const transaction = data ? pickTransaction(data) : undefined;
  const paid = data?.invoice.status === 'paid' || transaction?.status === 'paid';

  // Once paid, the session's subscription follows at once (the expired-plan banner goes away).
  useEffect(() => {
    if (!paid) return;
    void qc
      .fetchQuery({ queryKey: billingKeys.subscription, queryFn: billingApi.subscription, staleTime: 0 })
      .then((state) => syncSessionSubscription(state.subscription))
      .catch(() => undefined);
  }, [paid, qc]);

  const payable = data && (data.invoice.status === 'pending' || data.invoice.status === 'overdue');
  return (
    <>
      <PrintStyles />
      <BillingTitle title={t.title} testMode={data?.testMode} />
      <LoadState isPending={isPending && Number.isInteger(id)} error={error} />
      {!Number.isInteger(id) || id <= 0 ? <Alert severity="error">{t.notFound}</Alert> : null}
      {data ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }} data-testid="payment-page" data-status={paid ? 'paid' : data.invoice.status}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, mb: 2 }}>
            <Typography color="text.secondary">{format(t.order, { order: data.invoice.order })}</Typography>
            <Typography color="text.secondary">{planWithBilling(data.invoice.plan, data.invoice.months)}</Typography>
            <Typography fontWeight={700} data-testid="payment-amount">
              {format(t.amount, { amount: formatMoney(data.invoice.amount) })}
            </Typography>
          </Box>
          {paid ? <Paid detail={data} transactionId={transaction?.id} /> : null}
          {!paid && !payable ? <Alert severity="info">{format(t.notPayable, { status: texts.billing.invoices.status[data.invoice.status] ?? data.invoice.status })}</Alert> : null}
          {!paid && payable && transaction?.payment?.method === 'pix' ? <PixPanel payment={transaction.payment} /> : null}
          {!paid && payable && transaction?.payment?.method === 'boleto' ? <BoletoPanel payment={transaction.payment} detail={data} /> : null}
          {!paid && payable && !transaction?.payment ? <Alert severity="info">{t.noPayment}</Alert> : null}
          {!paid && payable ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} role="status">
              {t.waiting}
            </Typography>
          ) : null}
          {!paid && payable && data.testMode && canManage && transaction ? (
            <Simulate invoiceId={id} transactionId={transaction.id} onFallback={() => (mounted.current ? void refetch() : undefined)} />
          ) : null}
        </Paper>
      ) : null}
    </>
  );
}
