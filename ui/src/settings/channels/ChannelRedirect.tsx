import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { SettingsPage } from '../SettingsPage';
import { channelsApi } from './channelsApi';
import { channelsKey } from './ChannelListPage';
import { slugOf } from './channelTypes';

/** SPEC §2 'Canais /settings/channels/:id?': a channel's id alone opens its settings at /settings/channels/{type}/{id}. */
export function ChannelRedirect() {
  const { id } = useParams();
  const { data, error } = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list });
  const channel = data?.find((c) => String(c.id) === id);
  if (channel) return <Navigate to={`/settings/channels/${slugOf(channel.channelId)}/${channel.id}`} replace />;
  return (
    <SettingsPage title={texts.channels.title}>
      {error || data ? <Alert severity="error">{error ? errorDescriptions(error).join(' ') : texts.common.notFound}</Alert> : <LinearProgress aria-label={texts.common.loading} />}
    </SettingsPage>
  );
}
