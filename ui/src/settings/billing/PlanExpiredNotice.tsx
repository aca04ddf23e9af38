import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { texts } from '../../i18n/ptBR';

/**
 * In place of the composer while the plan is expired (issue 29): the api refuses to send (402), so the box
 * says why instead of letting an agent type a reply that cannot go out; level 6+ get the way to pay.
 */
export function PlanExpiredNotice({ canPay }: { canPay: boolean }) {
  return (
    <Alert
      severity="error"
      square
      role="status"
      data-testid="composer-plan-expired"
      sx={{ borderTop: 1, borderColor: 'divider' }}
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
