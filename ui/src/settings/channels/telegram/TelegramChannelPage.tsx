import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { TelegramChannelSchema, TelegramChannelUpdateSchema } from '../../../../../api/channels/telegram/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { api } from '../../../providers/httpClient';
import { format } from '../../../i18n/format';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../ChannelListPage';
import type { Channel } from '../channelsApi';
import { channelStatusLabel, useChannelCreate, useChannelDelete, useChannelUpdate } from '../channelPage';
import { ChannelAddForm, ChannelDeleteConfirm, ChannelEditButtons, ChannelPageRoute, ChannelSavedPanel } from '../ChannelPageParts';
import { texts } from '../../../i18n/ptBR';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.telegram;

type TelegramForm = z.input<typeof TelegramChannelSchema>;
type TelegramUpdateForm = z.input<typeof TelegramChannelUpdateSchema>;
type TelegramChannel = Channel & { botUsername: string | null };

const FIELDS = ['identifier', 'description'] as const;

/** The token field of a saved line. TODO(i18n): move to texts.channels.telegram.identifierKeep in i18n/ptBR.ts. */

/**
 * /settings/channels/telegram/{id}: the line's bot and status, its description and a new token of the same bot
 * (after a /revoke, which disconnects the line; saving it reconnects). The token is never shown.
 */
function TelegramChannelDetails({ id }: { id: number }) {
  const queryKey = [...channelsKey, 'telegram', id];
  const { data: channel, error } = useQuery({
    queryKey,
    queryFn: () => api<TelegramChannel>(`/integrations/telegram/${id}`),
    retry: false,
  });
  // DELETE also calls deleteWebhook: the bot stops sending us updates.
  const deletion = useChannelDelete({ queryKey, del: () => api(`/integrations/telegram/${id}`, { method: 'DELETE' }), deletedText: t.deleted });
  const save = useChannelUpdate<TelegramChannel>(`/integrations/telegram/${id}`, queryKey, t.saved);
  const { control, handleSubmit, setError, reset, formState } = useForm<TelegramUpdateForm>({
    resolver: zodResolver(TelegramChannelUpdateSchema),
    defaultValues: { identifier: '', description: '' },
  });
  useEffect(() => {
    if (channel) reset({ identifier: '', description: channel.description ?? '' });
  }, [channel, reset]);
  const submit = handleSubmit((values) => save(values, FIELDS, setError));
  if (error) return <Alert severity="error">{t.notFound}</Alert>;
  if (!channel) return <LinearProgress />;
  return (
    <SettingsPage title={channel.description ?? t.newTitle}>
      {channel.botUsername ? (
        <Typography>
          {t.bot}: @{channel.botUsername}
        </Typography>
      ) : null}
      <Typography color="text.secondary">
        {t.status}: {channelStatusLabel(channel.status, 'telegram')}
      </Typography>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="identifier" label={t.identifier} helperText={t.identifierKeepHelp} type="password" autoComplete="off" />
        <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 255 } }} />
        <ChannelEditButtons saveLabel={t.save} saving={formState.isSubmitting} backLabel={t.back} deleteLabel={t.delete} onDelete={deletion.ask} />
      </form>
      <CsatSettingsSection channelId={id} />
      <ChannelDeleteConfirm deletion={deletion} title={t.deleteTitle} content={format(t.deleteConfirm, { name: channel.description ?? '' })} confirm={t.delete} />
    </SettingsPage>
  );
}

/**
 * /settings/channels/add/telegram: a new Telegram line from the bot token BotFather gives
 * (docs/channels/telegram.md). The API checks the token with getMe (a wrong one comes back as the field's
 * error) and registers the webhook itself, so there is nothing to copy back; the token is never shown again.
 */
export function TelegramChannelPage() {
  return <ChannelPageRoute details={TelegramChannelDetails} notFound={t.notFound} add={<NewTelegramChannel />} />;
}

function NewTelegramChannel() {
  const { saved, create } = useChannelCreate<TelegramChannel>('/integrations/telegram', t.saved);
  const { control, handleSubmit, setError, formState } = useForm<TelegramForm>({
    resolver: zodResolver(TelegramChannelSchema),
    defaultValues: { identifier: '', description: '' },
  });
  const submit = handleSubmit((values) => create(values, FIELDS, setError));

  if (saved) {
    return (
      <ChannelSavedPanel title={saved.description ?? t.newTitle} savedText={t.saved} backLabel={t.back}>
        {saved.botUsername ? (
          <Typography sx={{ mt: 2 }}>
            {t.bot}: @{saved.botUsername}
          </Typography>
        ) : null}
      </ChannelSavedPanel>
    );
  }

  return (
    <ChannelAddForm title={t.newTitle} help={t.help} onSubmit={submit} submitLabel={t.save} submitting={formState.isSubmitting}>
      <FormTextField control={control} name="identifier" label={t.identifier} helperText={t.identifierHelp} type="password" autoComplete="off" required />
      <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 255 } }} />
    </ChannelAddForm>
  );
}
