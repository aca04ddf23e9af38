import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { TelegramChannelSchema } from '../../../../../api/channels/telegram/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../../forms/serverErrors';
import { api, errorDescriptions } from '../../../providers/httpClient';
import { format } from '../../../i18n/format';
import { texts } from '../../../i18n/ptBR';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../ChannelListPage';
import type { Channel } from '../channelsApi';
import { telegramTexts as t } from './texts';

type TelegramForm = z.input<typeof TelegramChannelSchema>;
type TelegramChannel = Channel & { botUsername: string | null };

const FIELDS = ['identifier', 'description'] as const;

/** /settings/channels/telegram/{id}: the line's description, bot and status (the token is never shown). */
function TelegramChannelDetails({ id }: { id: number }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { data: channel, error } = useQuery({
    queryKey: [...channelsKey, 'telegram', id],
    queryFn: () => api<TelegramChannel>(`/integrations/telegram/${id}`),
    retry: false,
  });
  // DELETE also calls deleteWebhook: the bot stops sending us updates.
  const remove = async () => {
    setDeleting(true);
    try {
      await api(`/integrations/telegram/${id}`, { method: 'DELETE' });
      queryClient.removeQueries({ queryKey: [...channelsKey, 'telegram', id] });
      await queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(t.deleted, { type: 'success' });
      void navigate('/settings/channels');
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };
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
        {t.status}: {(texts.channels.status as Record<string, string>)[channel.status] ?? channel.status}
      </Typography>
      <Box sx={{ mt: 2, display: 'flex', gap: 1 }}>
        <Button component={RouterLink} to="/settings/channels">
          {t.back}
        </Button>
        <Button color="warning" onClick={() => setConfirming(true)}>
          {t.delete}
        </Button>
      </Box>
      <Confirm
        isOpen={confirming}
        loading={deleting}
        title={t.deleteTitle}
        content={format(t.deleteConfirm, { name: channel.description ?? '' })}
        confirm={t.delete}
        confirmColor="warning"
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </SettingsPage>
  );
}

/**
 * /settings/channels/add/telegram: a new Telegram line from the bot token BotFather gives
 * (docs/channels/telegram.md). The API checks the token with getMe (a wrong one comes back as the field's
 * error) and registers the webhook itself, so there is nothing to copy back; the token is never shown again.
 */
export function TelegramChannelPage() {
  const { id } = useParams();
  if (id !== undefined) return /^\d+$/.test(id) ? <TelegramChannelDetails id={Number(id)} /> : <Alert severity="error">{t.notFound}</Alert>;
  return <NewTelegramChannel />;
}

function NewTelegramChannel() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<TelegramChannel>();
  const { control, handleSubmit, setError, formState } = useForm<TelegramForm>({
    resolver: zodResolver(TelegramChannelSchema),
    defaultValues: { identifier: '', description: '' },
  });

  const submit = handleSubmit(async (values) => {
    try {
      const row = await api<TelegramChannel>('/integrations/telegram', { method: 'POST', body: values });
      void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(t.saved, { type: 'success' });
      setSaved(row);
    } catch (err) {
      applyServerErrors(err, [...FIELDS], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  if (saved) {
    return (
      <SettingsPage title={saved.description ?? t.newTitle}>
        <Alert severity="success">{t.saved}</Alert>
        {saved.botUsername ? (
          <Typography sx={{ mt: 2 }}>
            {t.bot}: @{saved.botUsername}
          </Typography>
        ) : null}
        <Button component={RouterLink} to="/settings/channels" sx={{ mt: 2 }}>
          {t.back}
        </Button>
      </SettingsPage>
    );
  }

  return (
    <SettingsPage title={t.newTitle}>
      <form onSubmit={submit} noValidate>
        <Alert severity="info" sx={{ mb: 1 }}>
          {t.help}
        </Alert>
        <FormTextField control={control} name="identifier" label={t.identifier} helperText={t.identifierHelp} type="password" autoComplete="off" required />
        <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 255 } }} />
        <Box sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t.save}
          </Button>
        </Box>
      </form>
    </SettingsPage>
  );
}
