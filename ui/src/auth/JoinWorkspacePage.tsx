import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { NameAvatar } from '../common/NameAvatar';
import { errorDescriptions } from '../providers/httpClient';
import { getSession, updateUser } from '../providers/session';
import { AuthCard, AuthNotice, FormErrors } from './AuthCard';
import { authApi } from './authApi';

const t = texts.auth.joinWorkspace;

type Invite = Awaited<ReturnType<typeof authApi.joinInfo>>;
type State =
  | { status: 'loading' }
  | { status: 'ready'; invite: Invite; accepting: boolean; messages: string[] }
  | { status: 'joined' }
  | { status: 'failed'; messages: string[] };

/** /user/join-workspace?operatorId&workspaceId&token: an existing login accepts an invitation. */
export function JoinWorkspacePage() {
  const [params] = useSearchParams();
  const query = { operatorId: params.get('operatorId') ?? '', workspaceId: params.get('workspaceId') ?? '', token: params.get('token') ?? '' };
  const complete = Boolean(query.operatorId && query.workspaceId && query.token);
  const [state, setState] = useState<State>(complete ? { status: 'loading' } : { status: 'failed', messages: [t.invalidLink] });

  useEffect(() => {
    if (!complete) return;
    let live = true;
    authApi
      .joinInfo(query)
      .then((invite) => live && setState({ status: 'ready', invite, accepting: false, messages: [] }))
      .catch((err: unknown) => live && setState({ status: 'failed', messages: errorDescriptions(err) }));
    return () => {
      live = false;
    };
    // The query string is the identity of this page.
  }, [query.operatorId, query.workspaceId, query.token]);

  const accept = async () => {
    if (state.status !== 'ready') return;
    setState({ ...state, accepting: true, messages: [] });
    try {
      await authApi.joinWorkspace({ operatorId: Number(query.operatorId), workspaceId: Number(query.workspaceId), token: query.token });
      // A logged-in operator sees the new workspace in the user menu at once.
      if (getSession()) await authApi.profile().then((user) => updateUser({ workspaces: user.workspaces })).catch(() => undefined);
      setState({ status: 'joined' });
    } catch (err) {
      setState({ ...state, accepting: false, messages: errorDescriptions(err) });
    }
  };

  if (state.status === 'loading') {
    return (
      <AuthCard title={t.title}>
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
          <CircularProgress aria-label={texts.common.loading} />
        </Box>
      </AuthCard>
    );
  }
  if (state.status === 'joined' || state.status === 'failed') {
    return (
      <AuthNotice
        title={state.status === 'joined' ? t.done : t.title}
        errors={state.status === 'failed' ? state.messages : []}
        to="/"
        action={texts.common.ok}
      />
    );
  }
  const { invite } = state;
  return (
    <AuthCard title={t.title}>
      <Stack spacing={2} sx={{ my: 2 }}>
        <Stack direction="row" spacing={1.5} alignItems="center">
          <NameAvatar name={invite.operatorName} avatar={invite.operatorAvatar} size={40} />
          <Typography>{format(t.invitedBy, { name: invite.operatorName })}</Typography>
        </Stack>
        <Stack direction="row" spacing={1.5} alignItems="center">
          <NameAvatar name={invite.workspace} avatar={invite.workspaceAvatar} size={48} variant="rounded" />
          <Typography variant="h6" component="p" fontWeight={700}>
            {invite.workspace}
          </Typography>
        </Stack>
        <Typography>{t.question}</Typography>
      </Stack>
      <FormErrors messages={state.messages} sx={{}} />
      <Button variant="contained" size="large" fullWidth sx={{ mt: 2 }} onClick={() => void accept()} loading={state.accepting}>
        {t.accept}
      </Button>
    </AuthCard>
  );
}
