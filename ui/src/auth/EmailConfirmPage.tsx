import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import CircularProgress from '@mui/material/CircularProgress';
import Box from '@mui/material/Box';
import { texts } from '../i18n/ptBR';
import { errorDescriptions } from '../providers/httpClient';
import { getSession, updateUser } from '../providers/session';
import { AuthCard, AuthNotice } from './AuthCard';
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
    <AuthNotice
      title={state.status === 'done' ? t.done : t.failed}
      errors={state.status === 'failed' ? state.messages : []}
      to="/"
      action={texts.common.ok}
    />
  );
}
