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
