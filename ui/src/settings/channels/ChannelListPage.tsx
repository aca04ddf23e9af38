import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import { texts } from '../../i18n/ptBR';
import { ChannelIcon } from '../../inbox/ChannelIcon';
import { PAGE_SIZE, ResourceList, type ResourceColumn } from '../common';
import { channelsApi, type Channel } from './channelsApi';
import { slugOf, truncateName } from './channelTypes';
import { channelsKey } from './channelKeys';
import { channelStatusLabel } from './channelPage';
import { FirstChannelCard } from './FirstRun';
import { NewItemLink } from '../common/ResourceList';

const t = texts.channels;
export { channelsKey };

const nameOf = (c: Channel) => c.description || c.name || c.identifier;

const columns: ResourceColumn<Channel>[] = [
  { label: t.columns.name, render: (c) => truncateName(nameOf(c)), title: nameOf },
  {
    label: t.columns.type,
    render: (c) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <ChannelIcon platformId={c.platformId} aria-hidden />
        {t.types[slugOf(c.channelId)]}
      </Box>
    ),
  },
  { label: t.columns.status, render: (c) => channelStatusLabel(c.status, c.channelId, c.statusReason) },
];

/**
 * /settings/channels: every channel of the workspace on the shared list (SPEC §2); a row opens its settings
 * at /settings/channels/{type}/{id}, 'Adicionar canal' the type chooser.
 */
export function ChannelListPage() {
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const { data, error, isPending } = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list });
  return (
    <ResourceList
      title={t.title}
      action={
        <NewItemLink to="/settings/channels/add">{t.add}</NewItemLink>
      }
      empty={<FirstChannelCard canManage onCreated={(c) => void navigate(`/settings/channels/chat-widget/${c.id}`)} />}
      columns={columns}
      rows={data?.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)}
      total={data?.length ?? 0}
      page={page}
      onPageChange={setPage}
      onOpen={(c) => void navigate(`/settings/channels/${slugOf(c.channelId)}/${c.id}`)}
      error={error}
      loading={isPending}
    />
  );
}
