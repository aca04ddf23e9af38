import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { maskLinePhone } from '../../../api/channels/whatsapp/phone';
import { texts } from '../i18n/ptBR';
import { PAGE_SIZE, ResourceList, type ResourceColumn } from '../settings/common';
import { channelsKey } from '../settings/channels/channelKeys';
import { channelsApi, type Channel } from '../settings/channels/channelsApi';
import { channelStatusLabel } from '../settings/channels/channelPage';
import { truncateName } from '../settings/channels/channelTypes';
import { NewWhatsappLine, WhatsappLineDetails } from '../settings/channels/whatsapp/WhatsappChannelPage';
import { NewItemLink } from '../settings/common/ResourceList';

const t = texts.powerUps.whatsapp;

const nameOf = (c: Channel) => c.description || c.name || c.identifier;

const columns: ResourceColumn<Channel>[] = [
  { label: t.columns.name, render: (c) => truncateName(nameOf(c)), title: nameOf },
  { label: t.columns.phone, render: (c) => (c.phone ? maskLinePhone(c.phone) : '') },
  { label: t.columns.status, render: (c) => channelStatusLabel(c.status, c.channelId, c.statusReason) },
];

/** The WhatsApp numbers of the workspace, with 'Adicionar número'. */
function NumberList() {
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const { data, error, isPending } = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list });
  const lines = data?.filter((c) => c.channelId === 'whatsapp');
  return (
    <ResourceList
      title={t.title}
      action={
        <NewItemLink to="/power-ups/whatsapp/new">{t.add}</NewItemLink>
      }
      empty={<Alert severity="info">{t.empty}</Alert>}
      columns={columns}
      rows={lines?.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)}
      total={lines?.length ?? 0}
      page={page}
      onPageChange={setPage}
      onOpen={(c) => void navigate(`/power-ups/whatsapp/${c.id}`)}
      error={error}
      loading={isPending}
    />
  );
}

/**
 * SPEC §2 /power-ups/whatsapp/{id?}: list and add numbers ('Número salvo'); a number's id opens its settings
 * (the same page as /settings/channels/whatsapp/{id}), 'new' the add form (QR or API oficial).
 */
export function WhatsappPowerUpPage() {
  const { id } = useParams();
  if (id === undefined) return <Box sx={{ p: 3 }}><NumberList /></Box>;
  if (id === 'new') return <Box sx={{ p: 3 }}><NewWhatsappLine savedText={t.saved} /></Box>;
  if (!/^\d+$/.test(id)) return <Alert severity="error" sx={{ m: 3 }}>{texts.channels.whatsapp.notFound}</Alert>;
  return (
    <Box sx={{ p: 3 }}>
      <WhatsappLineDetails id={Number(id)} />
    </Box>
  );
}
