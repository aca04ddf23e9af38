import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { clearLocalData } from '../providers/session';
import { applyTheme, loadTheme } from '../theme/colors';
import { AuthCard } from './AuthCard';

/**
 * /user/logout: clears all local data and goes to login. The realtime socket belongs to the
 * logged-in app, which is unmounted by the time this page shows, so it is closed already.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    clearLocalData();
    applyTheme(loadTheme());
    void navigate('/user/login', { replace: true });
  }, [navigate]);
  return (
    <AuthCard title={texts.auth.logout.leaving}>
      <Typography aria-live="polite">{texts.auth.logout.leaving}</Typography>
    </AuthCard>
  );
}
