import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { saveLogin } from '../providers/session';
import { AuthCard } from './AuthCard';
import { peekHeldLogin, takeHeldLogin } from './pendingLogin';

const t = texts.auth.creating;
/** SPEC §9: register animation about 2 s plus 1.5 s. */
const STEP_MS = [2000, 1500] as const;

/** /user/register/creating: the animated screen between signup and the logged-in inbox. */
export function CreatingPage() {
  const navigate = useNavigate();
  const [held] = useState(() => peekHeldLogin());
  const [step, setStep] = useState(0);
  const [progress, setProgress] = useState(0);

  useEffect(() => {
    if (!held) return;
    const start = setTimeout(() => setProgress(60), 30);
    const first = setTimeout(() => {
      setStep(1);
      setProgress(100);
    }, STEP_MS[0]);
    const done = setTimeout(() => {
      setStep(2);
      const data = takeHeldLogin();
      if (data) saveLogin(data);
      void navigate('/inbox/all', { replace: true });
    }, STEP_MS[0] + STEP_MS[1]);
    return () => {
      clearTimeout(start);
      clearTimeout(first);
      clearTimeout(done);
    };
  }, [held, navigate]);

  if (!held) return <Navigate to="/user/register" replace />;
  const label = step < 2 ? t.steps[step]! : t.done;
  return (
    <AuthCard title={t.title}>
      <Box sx={{ py: 3 }} data-testid="creating-workspace">
        <Typography aria-live="polite" sx={{ mb: 2 }}>
          {label}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={progress}
          aria-label={label}
          sx={{ height: 8, borderRadius: 4, '& .MuiLinearProgress-bar': { transitionDuration: `${STEP_MS[step === 0 ? 0 : 1]}ms` } }}
        />
      </Box>
    </AuthCard>
  );
}
