import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { Alert } from '../common/LazyAlert';
import Button from '@mui/material/Button';
import { channelTypeNames, shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { channelsKey } from '../settings/channels/channelKeys';
import { channelsApi, type Channel } from '../settings/channels/channelsApi';
import { slugOf } from '../settings/channels/channelTypes';

const t = texts.banners;

interface ChannelStatusEvent {
  id: number;
  status: string;
  statusReason?: string | null;
}

function isStatusEvent(data: unknown): data is ChannelStatusEvent {
  const d = data as Partial<ChannelStatusEvent> | null;
  return !!d && typeof d.id === 'number' && typeof d.status === 'string';
}

/**
 * Keeps every cached view of a channel's status live: `channel.status` on `ws/{id}/all` patches the
 * settings' channel list and the channel's own page (whose keys start with channelsKey). Answers the
 * channels that turned disconnected while the app was open.
 */
function useChannelStatusSync(onDisconnected: (id: number) => void): void {
  const queryClient = useQueryClient();
  useRealtimeEvent((event) => {
    if (event.event !== 'channel.status' || !isStatusEvent(event.data)) return;
    const { id, status } = event.data;
    // The reason goes with the status: the labels say what the user must do (channelStatusLabel).
    const statusReason = event.data.statusReason ?? null;
    queryClient.setQueryData<Channel[]>(channelsKey, (list) => list?.map((c) => (c.id === id ? { ...c, status, statusReason } : c)));
    queryClient.setQueriesData<Channel>({ queryKey: channelsKey, exact: false }, (row) => (row && !Array.isArray(row) && row.id === id ? { ...row, status, statusReason } : row));
    // The list may not hold the channel yet (added elsewhere): read it again.
    if (!queryClient.getQueryData<Channel[]>(channelsKey)?.some((c) => c.id === id)) void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
    if (status === 'disconnected') onDisconnected(id);
  });
}

/**
 * SPEC §2 banner 'channel disconnected' ('Ver Canal', 'Fechar'): on app start for every channel that is
 * down (SPEC names WhatsApp; a revoked Telegram, Facebook or Instagram token is as down, so they raise it
 * too), and live for any channel that goes down (`channel.status`). 'Fechar' hides it until that channel
 * disconnects again; 'Ver Canal' opens the channel's settings (level 6+, who can act on it).
 */
export function ChannelStatusBanner({ canManage }: { canManage: boolean }) {
  const [closed, setClosed] = useState<number[]>([]);
  useChannelStatusSync((id) => setClosed((ids) => ids.filter((c) => c !== id)));
  const { data } = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list, staleTime: 30_000 });
  const down = (data ?? []).filter((c) => c.status === 'disconnected' && !closed.includes(c.id));
  if (!down.length) return null;
  return (
    <>
      {down.map((c) => (
        <Alert
          key={c.id}
          severity="error"
          square
          data-testid="channel-disconnected-banner"
          action={
            <>
              {canManage ? (
                <Button color="inherit" size="small" component={RouterLink} to={`/settings/channels/${slugOf(c.channelId)}/${c.id}`}>
                  {t.viewChannel}
                </Button>
              ) : null}
              <Button color="inherit" size="small" onClick={() => setClosed((ids) => [...ids, c.id])}>
                {t.close}
              </Button>
            </>
          }
        >
          {format(t.channelDisconnected, { name: c.description || c.name || c.identifier, type: channelTypeNames[slugOf(c.channelId)] })}
        </Alert>
      ))}
    </>
  );
}
