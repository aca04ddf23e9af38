import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Box from '@mui/material/Box';
import { texts } from '../i18n/ptBR';
import { errorDescriptions } from '../providers/httpClient';
import { getSession, updateUser } from '../providers/session';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';

const t = texts.auth.emailConfirm;

type State = { status: 'waiting' } | { status: 'done' } | { status: 'failed'; messages: string[] };

/** /user/email-confirm?token: 'Confirmando seu e-mail' → 'E-mail confirmado!' with Ok to /. */
export function EmailConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? { status: 'waiting' } : { status: 'failed', messages: [t.invalidLink] });
  const sent = useRef<string | null>(null);

  useEffect(() => {
    // The token is single-use: send it once even when React runs the effect twice.
    if (!token || sent.current === token) return;
    sent.current = token;
    authApi
      .confirmEmail(token)
      .then(({ verificationLevel }) => {
        if (getSession()) updateUser({ verificationLevel });
        setState({ status: 'done' });
      })
      .catch((err: unknown) => setState({ status: 'failed', messages: errorDescriptions(err) }));
  }, [token]);

  if (state.status === 'waiting') {
    return (
      <AuthCard title={t.waiting}>
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
          <CircularProgress aria-label={t.waiting} />
        </Box>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={state.status === 'done' ? t.done : t.failed}>
      {state.status === 'failed' ? (
        <Alert severity="error">
          {state.messages.map((m) => (
            <div key={m}>{m}</div>
          ))}
        </Alert>
      ) : null}
      <Button component={RouterLink} to="/" variant="contained" fullWidth sx={{ mt: 2 }}>
        {texts.common.ok}
      </Button>
    </AuthCard>
  );
}
