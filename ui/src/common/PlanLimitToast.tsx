import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { texts } from '../i18n/ptBR';
import { isHttpError } from '../providers/httpClient';

/**
 * Where a refusal points (the api's error entry `link`, docs/decisions.md): a plan limit or an expired plan
 * carries '/settings/billing/license', so the toast offers 'Assinatura' beside the text that names the limit.
 */
export function errorLink(error: unknown): string | null {
  if (!isHttpError(error)) return null;
  const link = error.body.entries.find((e) => typeof e.link === 'string' && e.link.startsWith('/'))?.link;
  return link ?? null;
}

/** The toast of such a refusal: its text and a button to the page it names. */
export function PlanLimitToast({ message, link }: { message: string; link: string }) {
  return (
    <Alert
      severity="error"
      variant="filled"
      data-testid="plan-limit-toast"
      action={
        <Button component={RouterLink} to={link} color="inherit" size="small">
          {texts.campaigns.plan.subscription}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
