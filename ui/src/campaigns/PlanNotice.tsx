import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { campaignKeys, campaignsApi } from './campaignsApi';
import { campaignTexts as t } from './texts';

/**
 * Why the workspace's plan cannot create a campaign (a trial, Basic or Business has no campaign units; an
 * expired plan), asked when the page opens, so nobody walks the whole wizard to be refused at the end.
 * `refusal` is null while loading, when the plan has campaigns, or when the question failed (the creation
 * still checks and says why).
 */
export function useCampaignPlanRefusal(): string | null {
  const { data } = useQuery({ queryKey: campaignKeys.plan, queryFn: ({ signal }) => campaignsApi.plan(signal) });
  return data?.refusal ?? null;
}

/** The refusal with the way out: the subscription page, 'Assinatura' (SPEC §2: /settings/billing/license). */
export function PlanNotice({ refusal }: { refusal: string }) {
  return (
    <Alert severity="info" data-testid="campaign-plan-notice" sx={{ mb: 2 }}>
      {refusal} {t.plan.seePlan}{' '}
      <Link component={RouterLink} to="/settings/billing/license" fontWeight={600}>
        {t.plan.subscription}
      </Link>
      .
    </Alert>
  );
}
