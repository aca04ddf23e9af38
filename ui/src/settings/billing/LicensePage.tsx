import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { errorDescriptions } from '../../providers/httpClient';
import { billingApi, billingKeys, UNIT_KEYS, type SubscriptionInfo, type SubscriptionState, type UnitKey } from './billingApi';
import { formatDay, formatMoney } from './format';
import { useBillingLive } from './live';
import { BillingTitle, billingName, LabeledValue, LoadState, planName, useCanManageBilling } from './parts';
import { syncSessionSubscription } from './sessionSync';

const t = texts.billing.license;

type Standing = 'active' | 'trial' | 'expired' | 'canceled' | 'canceling';

function standingOf(sub: SubscriptionInfo, now = Date.now()): Standing {
  if (sub.status === 'canceled') return 'canceled';
  if (sub.status === 'expired' || Date.parse(sub.expiresAt) < now) return 'expired';
  if (sub.canceledAt) return 'canceling';
  if (sub.trial || sub.license === 'trial') return 'trial';
  return 'active';
}

const STANDING_COLOR: Record<Standing, 'success' | 'info' | 'error' | 'default' | 'warning'> = {
  active: 'success',
  trial: 'info',
  expired: 'error',
  canceled: 'default',
  canceling: 'warning',
};

/** Today's use of one limit as a bar: "Agentes: 3 de 5". */
function UsageBar({ unit, used, limit }: { unit: UnitKey; used: number; limit: number }) {
  const name = texts.billing.units[unit];
  const value = limit > 0 ? Math.min(100, (used / limit) * 100) : used > 0 ? 100 : 0;
  const label = format(t.usageLabel, { unit: name, used, limit });
  return (
    <Box data-testid={`usage-${unit}`}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="body2">{name}</Typography>
        <Typography variant="body2" color={used > limit ? 'error' : 'text.secondary'}>
          {format(t.usageOf, { used, limit })}
        </Typography>
      </Box>
      <LinearProgress variant="determinate" value={value} aria-label={label} color={used >= limit && limit > 0 ? 'warning' : 'primary'} sx={{ height: 8, borderRadius: 4, mt: 0.5 }} />
    </Box>
  );
}

function Summary({ state, canManage, onCancel }: { state: SubscriptionState; canManage: boolean; onCancel: () => void }) {
  const sub = state.subscription!;
  const standing = standingOf(sub);
  const renews = standing === 'active' && sub.autorenewal;
  return (
    <>
      {standing === 'canceled' ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            canManage ? (
              <Button color="inherit" size="small" component={RouterLink} to="/settings/billing/subscription">
                {t.newPlan}
              </Button>
            ) : undefined
          }
        >
          {t.canceled}
        </Alert>
      ) : null}
      {standing === 'canceling' ? <Alert severity="info" sx={{ mb: 2 }}>{format(t.cancelScheduled, { date: formatDay(sub.expiresAt) })}</Alert> : null}
      {standing === 'trial' ? <Alert severity="info" sx={{ mb: 2 }}>{format(t.trialText, { date: formatDay(sub.expiresAt) })}</Alert> : null}
      {standing === 'expired' ? <Alert severity="error" sx={{ mb: 2 }}>{format(t.expired, { date: formatDay(sub.expiresAt) })}</Alert> : null}
      {state.openInvoice ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          data-testid="open-invoice"
          action={
            canManage ? (
              <Button color="inherit" size="small" component={RouterLink} to={`/settings/billing/payment/${state.openInvoice.id}`}>
                {t.pay}
              </Button>
            ) : undefined
          }
        >
          {state.openInvoice.dueAt
            ? format(t.openInvoiceDue, { amount: formatMoney(state.openInvoice.amount), date: formatDay(state.openInvoice.dueAt) })
            : format(t.openInvoice, { amount: formatMoney(state.openInvoice.amount) })}
        </Alert>
      ) : null}
      {sub.scheduledChange ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="scheduled-change">
          {format(t.scheduled, { date: formatDay(sub.scheduledChange.at), plan: planName(sub.scheduledChange.license) })}
        </Alert>
      ) : null}
      <Box data-testid="license-summary">
        <LabeledValue row label={t.plan}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <strong>{planName(sub.license)}</strong>
            <Chip size="small" color={STANDING_COLOR[standing]} label={t.status[standing]} />
          </Box>
        </LabeledValue>
        {UNIT_KEYS.map((k) => (
          <LabeledValue row key={k} label={texts.billing.units[k]}>
            {sub[k]}
          </LabeledValue>
        ))}
        <LabeledValue row label={t.billing}>{billingName(sub.months)}</LabeledValue>
        <LabeledValue row label={t.period}>{format(t.periodValue, { from: formatDay(sub.periodStart), to: formatDay(sub.expiresAt) })}</LabeledValue>
        {standing === 'trial' ? <LabeledValue row label={t.trialEnds}>{formatDay(sub.expiresAt)}</LabeledValue> : null}
        <LabeledValue row label={t.nextCharge}>{renews ? format(t.nextChargeValue, { amount: formatMoney(sub.total), date: formatDay(sub.expiresAt) }) : t.noNextCharge}</LabeledValue>
      </Box>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t.usageTitle}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {UNIT_KEYS.map((k) => (
          <UsageBar key={k} unit={k} used={state.usage[k]} limit={sub[k]} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 3, alignItems: 'center' }}>
        <Link component={RouterLink} to="/settings/billing/invoices" sx={{ mr: 'auto' }}>
          {t.invoices}
        </Link>
        {canManage && standing === 'active' && !sub.trial ? (
          <Button color="error" onClick={onCancel}>
            {t.cancel}
          </Button>
        ) : null}
        {canManage ? (
          <Button variant="contained" component={RouterLink} to="/settings/billing/subscription">
            {standing === 'canceled' ? t.newPlan : t.change}
          </Button>
        ) : null}
      </Box>
    </>
  );
}

/**
 * /settings/billing/license (SPEC §2 Billing): the plan, its units, period and next charge, today's usage
 * against each limit, and the way to change or cancel it. Level 6–8 read it (the user menu's 'Assinatura');
 * changing is 9+ (SPEC §6, both readings kept).
 */
export function LicensePage() {
  const notify = useNotify();
  const qc = useQueryClient();
  const canManage = useCanManageBilling();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { data, error, isPending } = useQuery({ queryKey: billingKeys.subscription, queryFn: billingApi.subscription });
  useBillingLive();

  useEffect(() => {
    if (data?.subscription) syncSessionSubscription(data.subscription);
  }, [data]);

  const cancel = async () => {
    const sub = data?.subscription;
    setConfirming(false);
    if (!sub) return;
    setBusy(true);
    try {
      const next = await billingApi.cancel(sub.id);
      notify(format(t.canceledToast, { date: formatDay(next?.expiresAt ?? sub.expiresAt) }), { type: 'success' });
      await qc.invalidateQueries({ queryKey: billingKeys.subscription });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
    setBusy(false);
  };

  return (
    <>
      <BillingTitle title={t.title} testMode={data?.testMode} />
      <LoadState isPending={isPending || busy} error={error} />
      {data ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
          {!canManage ? (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="billing-read-only">
              {t.readOnly}
            </Alert>
          ) : null}
          {data.subscription ? (
            <Summary state={data} canManage={canManage} onCancel={() => setConfirming(true)} />
          ) : (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}>
              <Typography>{t.none}</Typography>
              {canManage ? (
                <Button variant="contained" component={RouterLink} to="/settings/billing/subscription">
                  {t.newPlan}
                </Button>
              ) : null}
              <Link component={RouterLink} to="/settings/billing/invoices">
                {t.invoices}
              </Link>
            </Box>
          )}
        </Paper>
      ) : null}
      <Confirm
        isOpen={confirming}
        title={t.cancel}
        content={format(t.cancelConfirm, { date: formatDay(data?.subscription?.expiresAt) })}
        confirm={t.cancel}
        cancel={t.keep}
        confirmColor="warning"
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
