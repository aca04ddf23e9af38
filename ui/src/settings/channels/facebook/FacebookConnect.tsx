import { useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { errorDescriptions } from '../../../providers/httpClient';
import { format } from '../../../i18n/format';
import { texts } from '../../../i18n/ptBR';
import { channelsKey } from '../channelKeys';
import { channelStatusLabel } from '../channelPage';
import { PageChooserModal } from './PageChooserModal';
import { metaApi, metaKey, type FacebookChannel } from './metaApi';

const t = texts.channels.facebook;

/** Without META_APP_ID/SECRET/VERIFY_TOKEN the buttons are off and this says what the administrator must set. */
export function useMetaSettings() {
  return useQuery({ queryKey: [...metaKey, 'settings'], queryFn: metaApi.settings, staleTime: 60_000 });
}

export function MetaNotConfigured() {
  const { data } = useMetaSettings();
  if (!data || data.configured) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {data.message}
    </Alert>
  );
}

/** 'Conectar com o Facebook': asks our API for Meta's dialog URL and sends the browser there (it comes back to `returnTo`). */
export function ConnectFacebookButton({ returnTo, label = t.connect }: { returnTo: string; label?: string }) {
  const notify = useNotify();
  const { data } = useMetaSettings();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const { url } = await metaApi.oauthUrl(returnTo);
      window.location.assign(url);
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'warning' });
      setBusy(false);
    }
  };
  return (
    <Button variant="contained" onClick={() => void start()} disabled={busy || !data?.configured}>
      {label}
    </Button>
  );
}

/** The workspace's connected pages, each with its avatar, status and 'Remover' (which unsubscribes the page). */
export function ConnectedPages({ linkTo }: { linkTo: (c: FacebookChannel) => string }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data: pages } = useQuery({ queryKey: [...metaKey, 'pages'], queryFn: metaApi.pages });
  const [removing, setRemoving] = useState<FacebookChannel>();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await metaApi.deletePage(removing.id);
      await Promise.all([queryClient.invalidateQueries({ queryKey: metaKey }), queryClient.invalidateQueries({ queryKey: channelsKey, exact: true })]);
      notify(t.deleted, { type: 'success' });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setBusy(false);
      setRemoving(undefined);
    }
  };
  if (!pages) return null;
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2">
        {t.connectedPages}
      </Typography>
      {!pages.length ? <Typography color="text.secondary">{t.noneConnected}</Typography> : null}
      <List aria-label={t.connectedPages}>
        {pages.map((p) => (
          <ListItem
            key={p.id}
            secondaryAction={
              <Button color="warning" onClick={() => setRemoving(p)}>
                {t.remove}
              </Button>
            }
          >
            <ListItemAvatar>
              <Avatar src={p.avatar ?? undefined} alt="">
                {p.name.slice(0, 1)}
              </Avatar>
            </ListItemAvatar>
            <ListItemText primary={<RouterLink to={linkTo(p)}>{p.name}</RouterLink>} secondary={channelStatusLabel(p.status, 'facebook')} />
          </ListItem>
        ))}
      </List>
      <Confirm
        isOpen={!!removing}
        loading={busy}
        title={t.removeTitle}
        content={format(t.removeConfirm, { name: removing?.name ?? '' })}
        confirm={t.remove}
        confirmColor="warning"
        onConfirm={() => void remove()}
        onClose={() => setRemoving(undefined)}
      />
    </Box>
  );
}

/**
 * The connect flow of /settings/channels/add/facebook and /power-ups/facebook: the button, the warning with
 * Meta's message when the login failed (SPEC §8), the page chooser when Meta sent the person back with a
 * login session, and the connected pages.
 */
export function FacebookConnect({ returnTo, savedText, linkTo }: { returnTo: string; savedText: string; linkTo: (c: FacebookChannel) => string }) {
  const [params, setParams] = useSearchParams();
  const session = params.get('metaSession');
  const loginError = params.get('metaError');
  const clear = () => setParams({}, { replace: true });
  return (
    <>
      <MetaNotConfigured />
      <Typography sx={{ mb: 2 }}>{t.help}</Typography>
      {loginError ? (
        <Alert severity="warning" sx={{ mb: 2 }} onClose={clear}>
          {format(t.loginError, { message: loginError })}
        </Alert>
      ) : null}
      <ConnectFacebookButton returnTo={returnTo} />
      {session ? <PageChooserModal session={session} savedText={savedText} onClose={clear} /> : null}
      <ConnectedPages linkTo={linkTo} />
    </>
  );
}
