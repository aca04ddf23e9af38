import { useState } from 'react';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { errorDescriptions } from '../../../providers/httpClient';
import { format } from '../../../i18n/format';
import { texts } from '../../../i18n/ptBR';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../channelKeys';
import { channelStatusLabel, useChannelDelete } from '../channelPage';
import { BackToChannels, ChannelDeleteConfirm, ChannelPageRoute } from '../ChannelPageParts';
import { MetaNotConfigured } from '../facebook/FacebookConnect';
import { metaApi, metaKey, type InstagramAccount } from '../facebook/metaApi';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.instagram;

/** /settings/channels/instagram/{id}: the account, its status ('Seu canal de instagram desconectou' when Meta revoked it) and 'Excluir'. */
function InstagramChannelDetails({ id }: { id: number }) {
  const queryKey = [...channelsKey, 'instagram', id];
  const { data: channel, error } = useQuery({ queryKey, queryFn: () => metaApi.instagram(id), retry: false });
  const deletion = useChannelDelete({ queryKey, del: () => metaApi.deleteInstagram(id), deletedText: t.deleted });
  if (error) return <Alert severity="error">{t.notFound}</Alert>;
  if (!channel) return <LinearProgress />;
  return (
    <SettingsPage title={channel.name}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Avatar src={channel.avatar ?? undefined} alt="">
          {channel.name.slice(0, 1)}
        </Avatar>
        <Typography color="text.secondary">
          {t.status}: {channelStatusLabel(channel.status, 'instagram')}
        </Typography>
      </Box>
      {channel.status === 'disconnected' ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t.disconnected}{' '}
          <RouterLink to="/settings/channels/add/facebook">{t.reconnect}</RouterLink>
        </Alert>
      ) : null}
      <Box sx={{ mt: 2, display: 'flex', gap: 1 }}>
        <BackToChannels label={t.back} mt={0} />
        <Button color="warning" onClick={deletion.ask}>
          {t.delete}
        </Button>
      </Box>
      <CsatSettingsSection channelId={id} />
      <ChannelDeleteConfirm deletion={deletion} title={t.deleteTitle} content={format(t.deleteConfirm, { name: channel.name })} confirm={t.delete} />
    </SettingsPage>
  );
}

function AccountList() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string>();
  const { data: accounts, error } = useQuery({ queryKey: [...metaKey, 'instagram-accounts'], queryFn: metaApi.instagramAccounts });
  const connect = async (account: InstagramAccount) => {
    setBusy(account.id);
    try {
      await metaApi.connectInstagram(account.id);
      await Promise.all([queryClient.invalidateQueries({ queryKey: metaKey }), queryClient.invalidateQueries({ queryKey: channelsKey, exact: true })]);
      notify(account.connected ? t.updated : t.connected, { type: 'success' });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'warning' });
    } finally {
      setBusy(undefined);
    }
  };
  if (error) return <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert>;
  if (!accounts) return <LinearProgress />;
  if (!accounts.length) {
    return (
      <Alert severity="info">
        {t.none} <RouterLink to="/settings/channels/add/facebook">{t.connectPage}</RouterLink>
      </Alert>
    );
  }
  return (
    <List aria-label={t.accounts}>
      {accounts.map((a) => (
        <ListItem
          key={a.id}
          secondaryAction={
            <Button variant={a.connected ? 'outlined' : 'contained'} disabled={busy !== undefined} onClick={() => void connect(a)} aria-label={`${a.connected ? t.update : t.connect} @${a.username ?? a.id}`}>
              {a.connected ? t.update : t.connect}
            </Button>
          }
        >
          <ListItemAvatar>
            <Avatar src={a.picture ?? undefined} alt="">
              {(a.username ?? a.name ?? '?').slice(0, 1)}
            </Avatar>
          </ListItemAvatar>
          <ListItemText primary={a.username ? `@${a.username}` : (a.name ?? a.id)} secondary={format(t.linkedTo, { page: a.pageName })} />
        </ListItem>
      ))}
    </List>
  );
}

/**
 * /settings/channels/add/instagram (docs/channels/meta.md): the Instagram professional accounts linked to
 * the pages this workspace connected; 'Conectar' makes one a channel ('Instagram conectado'). No password
 * is ever asked (docs/decisions.md).
 */
export function InstagramChannelPage() {
  return <ChannelPageRoute details={InstagramChannelDetails} notFound={t.notFound} add={<NewInstagramChannel />} />;
}

function NewInstagramChannel() {
  return (
    <SettingsPage title={t.title}>
      <MetaNotConfigured />
      <Typography sx={{ mb: 2 }}>{t.help}</Typography>
      <AccountList />
      <BackToChannels label={t.back} />
    </SettingsPage>
  );
}
