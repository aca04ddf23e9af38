import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { format } from '../../../i18n/format';
import { texts } from '../../../i18n/ptBR';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../channelKeys';
import { channelStatusLabel, useChannelDelete } from '../channelPage';
import { BackToChannels, ChannelDeleteConfirm, ChannelPageRoute } from '../ChannelPageParts';
import { ConnectFacebookButton, FacebookConnect } from './FacebookConnect';
import { metaApi } from './metaApi';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.facebook;

/** /settings/channels/facebook/{id}: the page, its status, 'Reconectar' (a new login refreshes its token) and 'Excluir'. */
function FacebookChannelDetails({ id }: { id: number }) {
  const queryKey = [...channelsKey, 'facebook', id];
  const { data: channel, error } = useQuery({ queryKey, queryFn: () => metaApi.page(id), retry: false });
  const deletion = useChannelDelete({ queryKey, del: () => metaApi.deletePage(id), deletedText: t.deleted });
  if (error) return <Alert severity="error">{t.notFound}</Alert>;
  if (!channel) return <LinearProgress />;
  return (
    <SettingsPage title={channel.name}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Avatar src={channel.avatar ?? undefined} alt="" sx={{ width: 56, height: 56 }}>
          {channel.name.slice(0, 1)}
        </Avatar>
        <Box>
          <Typography>
            {t.pageId}: {channel.pageId}
          </Typography>
          <Typography color="text.secondary">
            {t.status}: {channelStatusLabel(channel.status, 'facebook')}
          </Typography>
        </Box>
      </Box>
      {channel.status === 'disconnected' ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t.disconnected}
        </Alert>
      ) : null}
      <Box sx={{ mt: 2, display: 'flex', gap: 1 }}>
        <ConnectFacebookButton returnTo="/settings/channels/add/facebook" label={t.reconnect} />
        <Button color="warning" onClick={deletion.ask}>
          {t.delete}
        </Button>
      </Box>
      <BackToChannels label={t.back} />
      <CsatSettingsSection channelId={id} />
      <ChannelDeleteConfirm deletion={deletion} title={t.removeTitle} content={format(t.removeConfirm, { name: channel.name })} confirm={t.delete} />
    </SettingsPage>
  );
}

/**
 * /settings/channels/add/facebook (docs/channels/meta.md): 'Conectar com o Facebook' → Meta's login →
 * back here with the page chooser → 'Canal de Facebook salvo'. /settings/channels/facebook/{id}: one page.
 */
export function FacebookChannelPage() {
  return <ChannelPageRoute details={FacebookChannelDetails} notFound={t.notFound} add={<NewFacebookChannel />} />;
}

function NewFacebookChannel() {
  return (
    <SettingsPage title={t.title}>
      <FacebookConnect returnTo="/settings/channels/add/facebook" savedText={t.saved} linkTo={(c) => `/settings/channels/facebook/${c.id}`} />
      <BackToChannels label={t.back} />
    </SettingsPage>
  );
}
