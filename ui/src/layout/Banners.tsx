import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useNotify } from 'react-admin';
import { Alert } from '../common/LazyAlert';
import Button from '@mui/material/Button';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { api } from '../providers/httpClient';
import { isPlanExpired, type Session } from '../providers/session';
import { ChannelStatusBanner } from './ChannelStatusBanner';

const t = texts.banners;

/** Re-renders every minute, so a plan that expires while the app is open shows its banner. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(id);
  }, []);
  return now;
}

function UnverifiedEmailBanner({ email }: { email: string }) {
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      await api('/operators/resend-email');
      notify(t.resent, { type: 'success' });
    } catch {
      notify(t.resendError, { type: 'error' });
    } finally {
      setSending(false);
    }
  };
  return (
    <Alert
      severity="warning"
      square
      data-testid="unverified-banner"
      action={
        <Button color="inherit" size="small" onClick={() => void resend()} loading={sending}>
          {t.resend}
        </Button>
      }
    >
      {format(t.unverified, { email })}
    </Alert>
  );
}

function ExpiredPlanBanner() {
  return (
    <Alert
      severity="error"
      square
      data-testid="expired-banner"
      action={
        <Button color="inherit" size="small" component={RouterLink} to="/settings/billing/license">
          {t.upgrade}
        </Button>
      }
    >
      {t.expired}
    </Alert>
  );
}

/** SPEC §2 banners of the logged-in area: unverified e-mail, expired plan and disconnected channel. */
export function Banners({ session }: { session: Session }) {
  const now = useMinuteClock();
  return (
    <>
      {session.user.verificationLevel <= 1 ? <UnverifiedEmailBanner email={session.user.email} /> : null}
      {isPlanExpired(session.workspace, now) ? <ExpiredPlanBanner /> : null}
      <ChannelStatusBanner canManage={session.workspace.accessLevel >= 6} />
    </>
  );
}
