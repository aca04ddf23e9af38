import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { errorDescriptions } from '../../providers/httpClient';
import { useSession } from '../../providers/session';
import { billingApi, billingKeys, type License } from './billingApi';
import { formatMoney } from './format';

const t = texts.billing;

/** The plans and the test-mode flag change only with a deploy: fetched once per page load. */
export function usePlans() {
  return useQuery({ queryKey: billingKeys.plans, queryFn: billingApi.plans, staleTime: 5 * 60_000 });
}

/** Level 9+ may change the subscription (the settings tab); 6–8 only read it (the user menu's 'Assinatura'). */
export function useCanManageBilling(): boolean {
  return (useSession()?.workspace.accessLevel ?? 0) >= 9;
}

/** 'Modo de teste' while the payment provider is the test mode (issue 29): on every billing page. */
export function TestModeChip({ testMode }: { testMode: boolean | undefined }) {
  const plans = usePlans();
  const on = testMode ?? plans.data?.testMode ?? false;
  if (!on) return null;
  return <Chip data-testid="test-mode" icon={<ScienceOutlined />} color="warning" label={t.testMode} title={t.testModeHint} size="small" className="billing-test-mode" />;
}

/** A billing page's title with the test-mode label beside it and optional actions on the right. */
export function BillingTitle({ title, testMode, children }: { title: string; testMode?: boolean; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1.5, mb: 2, maxWidth: 960 }}>
      <Typography variant="h5" component="h1" fontWeight={700}>
        {title}
      </Typography>
      <TestModeChip testMode={testMode} />
      <Box sx={{ flex: 1 }} />
      {children}
    </Box>
  );
}

/** The loading bar or the error of a billing call. */
export function LoadState({ isPending, error }: { isPending: boolean; error: unknown }) {
  if (error) return <Alert severity="error" sx={{ maxWidth: 960 }}>{errorDescriptions(error).join(' ')}</Alert>;
  if (isPending) return <LinearProgress aria-label={texts.common.loading} sx={{ maxWidth: 960 }} />;
  return null;
}

export function planName(license: License | string): string {
  return (t.plans as Record<string, string>)[license] ?? license;
}

export function billingName(months: number): string {
  return months >= 12 ? t.annual : t.monthly;
}

/** "Business (mensal)". */
export function planWithBilling(license: License | string, months: number): string {
  return format(t.planWithBilling, { plan: planName(license), billing: months >= 12 ? t.billingShort.annual : t.billingShort.monthly });
}

/** '1 agente' / '5 agentes' from a {one, many} pair of texts. */
export function countText(n: number, pair: { one: string; many: string }): string {
  return format(n === 1 ? pair.one : pair.many, { n });
}

/**
 * A label and its value: stacked (a document's fields) or, with `row`, side by side from 600 px with a rule
 * under it (the license summary).
 */
export function LabeledValue({ label, children, row }: { label: string; children: ReactNode; row?: boolean }) {
  return (
    <Box sx={row ? { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: { xs: 0, sm: 2 }, py: 1, borderBottom: 1, borderColor: 'divider' } : { minWidth: 0 }}>
      <Typography variant={row ? 'body2' : 'caption'} color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** One line of a price breakdown: label left, amount right ("− R$ 109,40" when it is taken off). */
export function AmountLine({ label, amount, negative, strong, testId }: { label: string; amount: number; negative?: boolean; strong?: boolean; testId?: string }) {
  const variant = strong ? 'subtitle1' : 'body2';
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }} data-testid={testId}>
      <Typography variant={variant} fontWeight={strong ? 700 : 400} sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {label}
      </Typography>
      <Typography variant={variant} fontWeight={strong ? 700 : 400} sx={{ whiteSpace: 'nowrap' }}>
        {negative ? `− ${formatMoney(amount)}` : formatMoney(amount)}
      </Typography>
    </Box>
  );
}

/** The heading and the how-to line that open a payment panel (Pix, boleto). */
export function PanelIntro({ title, help }: { title: string; help: string }) {
  return (
    <>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {help}
      </Typography>
    </>
  );
}
