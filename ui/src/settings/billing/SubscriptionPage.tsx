import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { errorDescriptions, HttpError } from '../../providers/httpClient';
import { useDebounced } from '../../common/useDebounced';
import {
  billingApi,
  billingKeys,
  type CouponInfo,
  type Method,
  type PlansInfo,
  type PurchasableLicense,
  type Quote,
  type QuoteRequest,
  type SubscriptionState,
  type Units,
} from './billingApi';
import { documentDigits, documentProblem } from '../../../../api/billing/document';
import { maskDocument } from './document';
import { formatDay } from './format';
import { BillingTitle, billingName, LoadState } from './parts';
import { PlanPicker, UnitStepper } from './PlanPicker';
import { QuoteSummary } from './QuoteSummary';

const t = texts.billing.change;
/** The quote is asked again 400 ms after the last change (a stepper held down is one request). */
const QUOTE_DEBOUNCE_MS = 400;
const EXTRA_KEYS = ['agents', 'whatsapp', 'campaign'] as const;

/** A subscription that can be changed mid-period (POST /payment/{id}/change); otherwise a new one is subscribed. */
function changeable(state: SubscriptionState): boolean {
  const sub = state.subscription;
  if (!sub) return false;
  return sub.status === 'active' && !sub.trial && sub.license !== 'trial' && sub.license !== 'pro' && Date.parse(sub.expiresAt) > Date.now();
}

interface Choice {
  license: PurchasableLicense;
  months: number;
  /** Beyond the plan: agents, lines, campaigns; instagram is the total (none included, no price). */
  extras: Units;
}

function initialChoice(info: PlansInfo, state: SubscriptionState): Choice {
  const sub = state.subscription;
  const current = info.plans.find((p) => p.license === sub?.license);
  const license = current?.license ?? 'business';
  const plan = info.plans.find((p) => p.license === license) ?? info.plans[0]!;
  const extra = (k: 'agents' | 'whatsapp' | 'campaign') => (current && sub ? Math.max(0, sub[k] - plan.included[k]) : 0);
  return {
    license,
    months: sub && sub.months >= 12 ? 12 : 1,
    extras: { agents: extra('agents'), whatsapp: extra('whatsapp'), campaign: extra('campaign'), instagram: Math.max(sub?.instagram ?? 0, state.usage.instagram) },
  };
}

function toRequest(info: PlansInfo, choice: Choice, coupon: string | null): QuoteRequest {
  const plan = info.plans.find((p) => p.license === choice.license)!;
  return {
    license: choice.license,
    months: choice.months,
    agents: plan.included.agents + choice.extras.agents,
    whatsapp: plan.included.whatsapp + choice.extras.whatsapp,
    campaign: plan.included.campaign + choice.extras.campaign,
    instagram: choice.extras.instagram,
    ...(coupon ? { coupon } : {}),
  };
}

/** The quote for the choices, asked again as they change; a refusal's fields come back as `errors`. */
function useQuote(request: QuoteRequest) {
  const debounced = useDebounced(request, QUOTE_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['billing', 'quote', debounced],
    queryFn: async ({ signal }): Promise<Quote | { errors: Record<string, string> }> => {
      try {
        return await billingApi.quote(debounced, signal);
      } catch (err) {
        // A 400 with field entries is the quote refusing the choices: shown on the fields, not as a failure.
        if (err instanceof HttpError && Object.keys(err.fieldErrors).length > 0) return { errors: err.fieldErrors };
        throw err;
      }
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
  const settled = JSON.stringify(debounced) === JSON.stringify(request) && !query.isFetching;
  const data = query.data;
  const errors = data?.errors ?? {};
  // A refused quote prices nothing (docs/billing-api.md): its fields' texts show instead of a summary.
  const quote = data && 'items' in data && Object.keys(errors).length === 0 ? (data as Quote) : undefined;
  return { quote: settled || quote ? quote : undefined, errors: settled ? errors : {}, loading: !settled, error: query.error };
}

function CouponField({
  months,
  applied,
  onApplied,
  onRemoved,
  quoteError,
}: {
  months: number;
  applied: CouponInfo | null;
  onApplied: (coupon: CouponInfo) => void;
  onRemoved: () => void;
  quoteError?: string;
}) {
  const notify = useNotify();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);
  const apply = async () => {
    if (!code.trim()) return;
    setChecking(true);
    setError(undefined);
    try {
      const coupon = await billingApi.verifyCoupon(code.trim(), months);
      onApplied(coupon);
      setCode('');
      notify(t.couponApplied, { type: 'success' });
    } catch (err) {
      // SPEC §7: a refused coupon clears the field; its reason stays under it.
      setCode('');
      setError(err instanceof HttpError ? (err.fieldErrors.code ?? errorDescriptions(err).join(' ')) : errorDescriptions(err).join(' '));
    }
    setChecking(false);
  };
  if (applied) {
    const charges = applied.charges === 1 ? t.oneCharge : format(t.manyCharges, { n: applied.charges });
    return (
      <Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Chip
            color={quoteError ? 'error' : 'success'}
            data-testid="coupon-applied"
            label={format(t.couponInfo, { code: applied.code, percent: applied.percent, charges })}
            sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } }}
          />
          <IconButton size="small" aria-label={t.removeCoupon} onClick={onRemoved}>
            <Close fontSize="small" />
          </IconButton>
        </Box>
        {quoteError ? (
          <Typography variant="caption" color="error" component="p" sx={{ mt: 0.5 }}>
            {quoteError}
          </Typography>
        ) : null}
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        id="coupon"
        label={t.coupon}
        value={code}
        onChange={(e) => {
          setCode(e.target.value.toUpperCase());
          setError(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void apply();
          }
        }}
        error={Boolean(error)}
        helperText={error ?? ' '}
        size="small"
        fullWidth
      />
      <Button variant="outlined" onClick={() => void apply()} loading={checking} disabled={!code.trim()} sx={{ mt: 0.25, flexShrink: 0 }}>
        {t.applyCoupon}
      </Button>
    </Box>
  );
}

function ChangeForm({ info, state }: { info: PlansInfo; state: SubscriptionState }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const isChange = changeable(state);
  const [choice, setChoice] = useState<Choice>(() => initialChoice(info, state));
  const [coupon, setCoupon] = useState<CouponInfo | null>(null);
  const [method, setMethod] = useState<Method>('pix');
  const [document, setDocument] = useState('');
  const [documentError, setDocumentError] = useState<string | undefined>();
  const [submitErrors, setSubmitErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const plan = info.plans.find((p) => p.license === choice.license)!;
  const request = useMemo(() => toRequest(info, choice, coupon?.code ?? null), [info, choice, coupon]);
  const { quote, errors: quoteErrors, loading, error: quoteFailure } = useQuote(request);
  const errors = { ...quoteErrors, ...submitErrors };

  const update = (patch: Partial<Choice>) => {
    setSubmitErrors({});
    setChoice((c) => ({ ...c, ...patch, extras: { ...c.extras, ...(patch.extras ?? {}) } }));
  };

  const submit = async () => {
    setSubmitErrors({});
    const body = { ...request, method };
    if (!isChange) {
      const problem = documentProblem(document);
      if (problem) {
        setDocumentError(problem);
        return;
      }
      Object.assign(body, { document: documentDigits(document) });
    }
    setSubmitting(true);
    try {
      const answer = isChange ? await billingApi.change(state.subscription!.id, body) : await billingApi.subscribe(body);
      await Promise.all([qc.invalidateQueries({ queryKey: billingKeys.subscription }), qc.invalidateQueries({ queryKey: billingKeys.invoices })]);
      if (answer.invoiceId) {
        void navigate(`/settings/billing/payment/${answer.invoiceId}`);
      } else {
        const date = answer.scheduledChange?.at ?? state.subscription?.expiresAt;
        notify(format(t.scheduledToast, { date: formatDay(date) }), { type: 'success' });
        void navigate('/settings/billing/license');
      }
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length > 0) {
        setSubmitErrors(err.fieldErrors);
        if (err.fieldErrors.document) setDocumentError(err.fieldErrors.document);
        const unplaced = Object.keys(err.fieldErrors).filter((k) => !['license', 'months', 'agents', 'whatsapp', 'campaign', 'instagram', 'coupon', 'document'].includes(k));
        for (const k of unplaced) notify(err.fieldErrors[k]!, { type: 'error' });
      } else {
        for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      }
    }
    setSubmitting(false);
  };

  const blocked = loading || !quote || Object.keys(errors).length > 0 || submitting;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 340px' }, gap: 3, alignItems: 'start', maxWidth: 1200 }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
        <Box>
          <FormLabel id="billing-cycle-label" sx={{ display: 'block', mb: 1 }}>
            {t.billing}
          </FormLabel>
          <ToggleButtonGroup
            exclusive
            color="primary"
            size="small"
            value={choice.months}
            onChange={(_, months: number | null) => (months ? update({ months }) : undefined)}
            aria-labelledby="billing-cycle-label"
          >
            <ToggleButton value={1}>{billingName(1)}</ToggleButton>
            <ToggleButton value={12}>{billingName(12)}</ToggleButton>
          </ToggleButtonGroup>
          {errors.months ? (
            <Typography variant="caption" color="error" component="p">
              {errors.months}
            </Typography>
          ) : null}
        </Box>
        <Box>
          <PlanPicker info={info} value={choice.license} currentLicense={state.subscription?.license} onChange={(license) => update({ license })} />
          {errors.license ? (
            <Alert severity="error" sx={{ mt: 1 }} data-testid="license-error">
              {errors.license}
            </Alert>
          ) : null}
        </Box>
        <Box>
          <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
            {t.extrasTitle}
          </Typography>
          <Box sx={{ display: 'grid', gap: 1.5, maxWidth: 460 }}>
            {EXTRA_KEYS.map((k) => (
              <UnitStepper
                key={k}
                unit={k}
                value={choice.extras[k]}
                included={plan.included[k]}
                price={info.extras[k]}
                error={errors[k]}
                onChange={(n) => update({ extras: { ...choice.extras, [k]: n } })}
              />
            ))}
            <UnitStepper unit="instagram" value={choice.extras.instagram} included={0} price={0} error={errors.instagram} onChange={(n) => update({ extras: { ...choice.extras, instagram: n } })} />
          </Box>
        </Box>
        <CouponField
          months={choice.months}
          applied={coupon}
          onApplied={(c) => {
            setSubmitErrors({});
            setCoupon(c);
          }}
          onRemoved={() => setCoupon(null)}
          quoteError={errors.coupon}
        />
        <Box>
          <FormLabel id="method-label">{t.method}</FormLabel>
          <RadioGroup row aria-labelledby="method-label" value={method} onChange={(e) => setMethod(e.target.value as Method)}>
            <FormControlLabel value="pix" control={<Radio />} label={t.pix} />
            <FormControlLabel value="boleto" control={<Radio />} label={t.boleto} />
          </RadioGroup>
        </Box>
        {!isChange ? (
          <TextField
            id="document"
            label={t.document}
            value={document}
            onChange={(e) => {
              setDocument(maskDocument(e.target.value));
              setDocumentError(undefined);
            }}
            onBlur={() => setDocumentError(document ? (documentProblem(document) ?? undefined) : undefined)}
            error={Boolean(documentError)}
            helperText={documentError ?? t.documentHelp}
            required
            size="small"
            sx={{ maxWidth: 360 }}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
          />
        ) : null}
      </Box>
      <Paper variant="outlined" sx={{ p: 2, position: { md: 'sticky' }, top: { md: 16 }, minWidth: 0 }}>
        {quoteFailure ? <Alert severity="error">{errorDescriptions(quoteFailure).join(' ') || t.quoteFailed}</Alert> : null}
        <QuoteSummary quote={quote} loading={loading} couponCode={coupon?.code ?? null} periodEndDate={formatDay(state.subscription?.expiresAt)} />
        <Button variant="contained" fullWidth sx={{ mt: 2 }} onClick={() => void submit()} disabled={blocked} loading={submitting}>
          {isChange ? t.submitChange : t.submitNew}
        </Button>
        <Button component={RouterLink} to="/settings/billing/license" fullWidth sx={{ mt: 1 }}>
          {t.back}
        </Button>
      </Paper>
    </Box>
  );
}

/**
 * /settings/billing/subscription (SPEC §2, the hidden tab): plan, monthly or annual, add-ons, coupon,
 * payment method and, the first time, the payer's CPF or CNPJ; the total comes live from POST /payment/quote.
 */
export function SubscriptionPage() {
  const plans = useQuery({ queryKey: billingKeys.plans, queryFn: billingApi.plans, staleTime: 5 * 60_000 });
  const state = useQuery({ queryKey: billingKeys.subscription, queryFn: billingApi.subscription });
  return (
    <>
      <BillingTitle title={t.title} testMode={plans.data?.testMode ?? state.data?.testMode} />
      <LoadState isPending={plans.isPending || state.isPending} error={plans.error ?? state.error} />
      {plans.data && state.data ? <ChangeForm info={plans.data} state={state.data} /> : null}
    </>
  );
}
