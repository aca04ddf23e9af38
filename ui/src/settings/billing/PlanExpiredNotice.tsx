import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { texts } from '../../i18n/ptBR';
import type { WorkspaceSession } from '../../providers/session';

export const PLAN_EXPIRED_HELP_ID = 'composer-plan-expired-help';

/**
 * Whether the api refuses replies to customers for the session's plan (402, docs/billing-api.md): an ended
 * plan (expired, or canceled past its paid period), or a trial past its end (a trial has no grace). A paid plan
 * past its end may still be in its grace days, which the session does not carry: the send's 402 says so then.
 */
export function repliesBlockedByPlan(workspace: WorkspaceSession | undefined, now = Date.now()): boolean {
  const sub = workspace?.subscription;
  if (!sub) return false;
  if (sub.status === 'expired' || sub.status === 'canceled') return true;
  return sub.license === 'trial' && Date.parse(sub.expiresAt) < now;
}

/**
 * Above the reply box while the plan is expired (issue 29): why replies cannot go out (private notes stay
 * open, as the api allows them); level 6+ get the way to pay.
 */
export function PlanExpiredNotice({ canPay }: { canPay: boolean }) {
  return (
    <Alert
      id={PLAN_EXPIRED_HELP_ID}
      severity="error"
      data-testid="composer-plan-expired"
      sx={{ mb: 1, py: 0, fontSize: 13 }}
      action={
        canPay ? (
          <Button color="inherit" size="small" component={RouterLink} to="/settings/billing/license">
            {texts.billing.composerLink}
          </Button>
        ) : undefined
      }
    >
      {texts.billing.composerExpired}
    </Alert>
  );
}
