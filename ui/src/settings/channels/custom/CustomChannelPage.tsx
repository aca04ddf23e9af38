import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CustomChannelSchema } from '../../../../../api/channels/custom/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { api } from '../../../providers/httpClient';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../ChannelListPage';
import type { Channel } from '../channelsApi';
import { useChannelCreate } from '../channelPage';
import { BackToChannels, ChannelAddForm, ChannelCopyField } from '../ChannelPageParts';
import { DataTable } from '../../../common/DataTable';
import { texts } from '../../../i18n/ptBR';
import type { CustomDeliveryView } from '../../../../../api/channels/custom/queries';
import type { Wire } from '../../../providers/wire';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.custom;

type CustomForm = z.input<typeof CustomChannelSchema>;
export type CustomChannel = Channel & { hashIdentifier: string | null; webhookUrl: string; secret?: string };
/** GET /integrations/custom/:id/deliveries, as the api presents it (api/channels/custom/queries.ts). */
export type CustomDelivery = Wire<CustomDeliveryView>;

const FIELDS = ['description', 'hashIdentifier'] as const;

function Deliveries({ channelId }: { channelId: number }) {
  const { data } = useQuery({
    queryKey: [...channelsKey, 'custom', channelId, 'deliveries'],
    queryFn: () => api<CustomDelivery[]>(`/integrations/custom/${channelId}/deliveries`),
    refetchInterval: 10_000,
  });
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h2">
        {t.deliveriesTitle}
      </Typography>
      {data && !data.length ? (
        <Typography color="text.secondary">{t.deliveriesEmpty}</Typography>
      ) : (
        <DataTable
          aria-label={t.deliveriesTitle}
          rows={data ?? []}
          rowKey={(d) => d.messageId}
          columns={[
            { header: t.message, cell: (d) => <RouterLink to={`/inbox/all/${d.conversationId}`}>{d.webhookId}</RouterLink> },
            { header: t.state, cell: (d) => t.states[d.state] ?? d.state },
            { header: t.attempts, cell: (d) => d.attempts },
            { header: t.lastError, cell: (d) => d.error ?? '—' },
            { header: t.updatedAt, cell: (d) => new Date(d.updatedAt).toLocaleString('pt-BR') },
          ]}
        />
      )}
    </Box>
  );
}

/** The channel's endpoints (and, right after saving, its secret, shown this once) and its delivery log. */
function CustomChannelView({ channel, secret }: { channel: CustomChannel; secret?: string }) {
  return (
    <SettingsPage title={channel.description}>
      {secret ? (
        <Box>
          <Alert severity="success">{t.saved}</Alert>
          <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
            {t.secretTitle}
          </Typography>
          <Alert severity="warning" sx={{ my: 1 }}>
            {t.secretOnce}
          </Alert>
          <ChannelCopyField id="field-secret" label={t.secret} value={secret} monospace namedButton />
        </Box>
      ) : null}
      <TextField id="field-hashIdentifier" label={t.endpoint} value={channel.hashIdentifier ?? ''} fullWidth margin="normal" slotProps={{ htmlInput: { readOnly: true } }} />
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
        {t.inboundTitle}
      </Typography>
      <ChannelCopyField id="field-webhookUrl" label={t.webhookUrl} value={channel.webhookUrl} namedButton />
      <Typography variant="body2" color="text.secondary">
        {t.docsHint}
      </Typography>
      <Deliveries channelId={channel.id} />
      <CsatSettingsSection channelId={channel.id} />
      <BackToChannels label={t.back} />
    </SettingsPage>
  );
}

/**
 * /settings/channels/add/custom and /settings/channels/custom/{id} (docs/channels/custom.md): a new custom
 * channel (description and the company's https endpoint); after saving, toast 'Canal customizado salvo',
 * the signing secret shown once with a copy button, our inbound URL and the delivery log.
 */
export function CustomChannelPage() {
  const { id: rawId } = useParams();
  const id = rawId !== undefined && /^\d+$/.test(rawId) ? Number(rawId) : undefined;
  // The secret lives only in this page's memory (`saved`): shown now, never fetched again.
  const { saved, create } = useChannelCreate<CustomChannel>('/integrations/custom', t.saved);
  const { data: existing, error } = useQuery({
    queryKey: [...channelsKey, 'custom', id],
    queryFn: () => api<CustomChannel>(`/integrations/custom/${id}`),
    enabled: id !== undefined && !saved,
    retry: false,
  });
  const { control, handleSubmit, setError, formState } = useForm<CustomForm>({
    resolver: zodResolver(CustomChannelSchema),
    defaultValues: { description: '', hashIdentifier: 'https://' },
  });

  const submit = handleSubmit((values) => create(values, FIELDS, setError));

  if (saved) return <CustomChannelView channel={saved} secret={saved.secret} />;
  if (rawId !== undefined) {
    if (error || id === undefined) {
      return (
        <SettingsPage title={t.notFound}>
          <BackToChannels label={t.back} mt={0} />
        </SettingsPage>
      );
    }
    return existing ? <CustomChannelView channel={existing} /> : null;
  }

  return (
    <ChannelAddForm title={t.newTitle} onSubmit={submit} submitLabel={t.save} submitting={formState.isSubmitting}>
      <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 120 } }} />
      <FormTextField control={control} name="hashIdentifier" label={t.endpoint} helperText={t.endpointHelp} required type="url" slotProps={{ htmlInput: { maxLength: 2048 } }} />
    </ChannelAddForm>
  );
}
