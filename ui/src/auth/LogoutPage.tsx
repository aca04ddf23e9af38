import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { clearLocalData, getSession } from '../providers/session';
import { pushApi } from '../pwa/pushApi';
import { applyTheme, loadTheme } from '../theme/colors';
import { AuthCard } from './AuthCard';

/**
 * /user/logout: this device stops receiving the agent's pushes while the session can still say so (at most
 * 3 s, docs/pwa.md), then all local data is cleared and login shows. The realtime socket belongs to the
 * logged-in app, which is unmounted by the time this page shows, so it is closed already.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    void (async () => {
      if (getSession()) await pushApi.forgetThisDevice();
      if (!live) return;
      clearLocalData();
      applyTheme(loadTheme());
      void navigate('/user/login', { replace: true });
    })();
    return () => {
      live = false;
    };
  }, [navigate]);
  return (
    <AuthCard title={texts.auth.logout.leaving}>
      <Typography aria-live="polite">{texts.auth.logout.leaving}</Typography>
    </AuthCard>
  );
}
