import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { EmailChannelSchema, EmailChannelUpdateSchema } from '../../../../../api/channels/email/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { api } from '../../../providers/httpClient';
import { format } from '../../../i18n/format';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../channelKeys';
import type { Channel } from '../channelsApi';
import { channelStatusLabel, useChannelCreate, useChannelDelete, useChannelUpdate } from '../channelPage';
import { ChannelAddForm, ChannelCopyField, ChannelDeleteConfirm, ChannelEditButtons, ChannelPageRoute, ChannelSavedPanel } from '../ChannelPageParts';
import { texts } from '../../../i18n/ptBR';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.email;

type EmailForm = z.input<typeof EmailChannelSchema>;
type EmailSettingsForm = z.input<typeof EmailChannelUpdateSchema>;
type EmailChannel = Channel & { fromName: string; fromAddress: string; smtp: 'product' | 'company'; outboundReady: boolean };

const SETTINGS_FIELDS = ['description', 'fromName', 'fromAddress', 'smtp', 'smtpUrl'] as const;

/**
 * /settings/channels/add/email and /settings/channels/email/{id} (docs/channels/email.md). The API
 * generates the forwarding address; it is shown with a copy button and how to forward a mailbox to it.
 */
export function EmailChannelPage() {
  return <ChannelPageRoute details={EmailChannelDetails} notFound={t.notFound} add={<NewEmailChannel />} />;
}

function ForwardingAddress({ address }: { address: string }) {
  return (
    <>
      <ChannelCopyField id="email-forwarding-address" label={t.address} value={address} />
      <Typography variant="body2" sx={{ mt: 1 }}>
        {t.instructions}
      </Typography>
    </>
  );
}

function NewEmailChannel() {
  const { saved, create } = useChannelCreate<Channel>('/integrations/mail', t.saved);
  const { control, handleSubmit, setError, formState } = useForm<EmailForm>({
    resolver: zodResolver(EmailChannelSchema),
    defaultValues: { description: '' },
  });

  const submit = handleSubmit((values) => create(values, ['description'], setError));

  if (saved) {
    return (
      <ChannelSavedPanel title={saved.description ?? t.newTitle} savedText={t.saved} backLabel={t.back}>
        <ForwardingAddress address={saved.identifier} />
      </ChannelSavedPanel>
    );
  }

  return (
    <ChannelAddForm title={t.newTitle} help={t.help} onSubmit={submit} submitLabel={t.save} submitting={formState.isSubmitting}>
      <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 120 } }} />
    </ChannelAddForm>
  );
}

/** /settings/channels/email/{id}: the forwarding address to copy, the description and how replies go out. */
function EmailChannelDetails({ id }: { id: number }) {
  const queryKey = [...channelsKey, 'email', id];
  const { data: channel, error } = useQuery({ queryKey, queryFn: () => api<EmailChannel>(`/integrations/mail/${id}`), retry: false });
  const deletion = useChannelDelete({ queryKey, del: () => api(`/integrations/mail/${id}`, { method: 'DELETE' }), deletedText: t.deleted });
  const save = useChannelUpdate<EmailChannel>(`/integrations/mail/${id}`, queryKey, t.saved);
  const { control, handleSubmit, setError, reset, formState } = useForm<EmailSettingsForm>({
    resolver: zodResolver(EmailChannelUpdateSchema),
    defaultValues: { description: '', fromName: '', fromAddress: '', smtp: 'product', smtpUrl: '' },
  });
  useEffect(() => {
    if (channel) reset({ description: channel.description ?? '', fromName: channel.fromName, fromAddress: channel.fromAddress, smtp: channel.smtp, smtpUrl: '' });
  }, [channel, reset]);
  const smtp = useWatch({ control, name: 'smtp' });

  const submit = handleSubmit((values) => save(values, SETTINGS_FIELDS, setError));

  if (error) return <Alert severity="error">{t.notFound}</Alert>;
  if (!channel) return <LinearProgress />;
  return (
    <SettingsPage title={channel.description ?? t.newTitle}>
      <Typography color="text.secondary">
        {t.status}: {channelStatusLabel(channel.status)}
      </Typography>
      {channel.outboundReady ? null : (
        <Alert severity="warning" data-testid="email-no-outbound-smtp" sx={{ my: 1 }}>
          {t.noOutboundSmtp}
        </Alert>
      )}
      <ForwardingAddress address={channel.identifier} />
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 120 } }} />
        <Typography variant="subtitle1" sx={{ mt: 2 }}>
          {t.outboundTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t.outboundHelp}
        </Typography>
        <FormTextField control={control} name="fromName" label={t.fromName} helperText={t.fromNameHelp} slotProps={{ htmlInput: { maxLength: 120 } }} />
        <FormTextField control={control} name="fromAddress" label={t.fromAddress} helperText={format(t.fromAddressHelp, { address: channel.identifier })} type="email" />
        <Controller
          control={control}
          name="smtp"
          render={({ field }) => (
            <FormControl sx={{ mt: 2 }}>
              <FormLabel id="email-smtp-label">{t.smtpLabel}</FormLabel>
              <RadioGroup aria-labelledby="email-smtp-label" name={field.name} value={field.value ?? 'product'} onChange={(e) => field.onChange(e.target.value)}>
                <FormControlLabel value="product" control={<Radio />} label={t.smtpProduct} />
                <FormControlLabel value="company" control={<Radio />} label={t.smtpCompany} />
              </RadioGroup>
            </FormControl>
          )}
        />
        {smtp === 'company' ? (
          <FormTextField
            control={control}
            name="smtpUrl"
            label={t.smtpUrl}
            type="password"
            autoComplete="off"
            helperText={channel.smtp === 'company' ? t.smtpUrlKept : t.smtpUrlHelp}
          />
        ) : null}
        <ChannelEditButtons saveLabel={t.save} saving={formState.isSubmitting} backLabel={t.back} deleteLabel={t.delete} onDelete={deletion.ask} />
      </form>
      <CsatSettingsSection channelId={id} />
      <ChannelDeleteConfirm deletion={deletion} title={t.deleteTitle} content={format(t.deleteConfirm, { name: channel.description ?? '' })} confirm={t.delete} />
    </SettingsPage>
  );
}
