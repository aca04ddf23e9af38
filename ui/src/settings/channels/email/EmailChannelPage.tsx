import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EmailChannelSchema } from '../../../../../api/channels/email/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../../forms/serverErrors';
import { api } from '../../../providers/httpClient';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../ChannelListPage';
import type { Channel } from '../channelsApi';
import { emailTexts as t } from './texts';

type EmailForm = z.input<typeof EmailChannelSchema>;

/**
 * /settings/channels/add/email: a new e-mail channel from its description (docs/channels/email.md). The
 * API generates the forwarding address; it is shown with a copy button and how to forward a mailbox to it.
 */
export function EmailChannelPage() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<Channel>();
  const { control, handleSubmit, setError, formState } = useForm<EmailForm>({
    resolver: zodResolver(EmailChannelSchema),
    defaultValues: { description: '' },
  });

  const submit = handleSubmit(async (values) => {
    try {
      const row = await api<Channel>('/integrations/mail', { method: 'POST', body: values });
      void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(t.saved, { type: 'success' });
      setSaved(row);
    } catch (err) {
      applyServerErrors(err, ['description'], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  if (saved) {
    return (
      <SettingsPage title={saved.description ?? t.newTitle}>
        <Alert severity="success">{t.saved}</Alert>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <TextField id="email-forwarding-address" label={t.address} value={saved.identifier} fullWidth margin="normal" slotProps={{ htmlInput: { readOnly: true } }} />
          <Button onClick={() => void navigator.clipboard?.writeText(saved.identifier).then(() => notify(t.copied, { type: 'info' }))}>{t.copy}</Button>
        </Box>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t.instructions}
        </Typography>
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
        <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 120 } }} />
        <Box sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t.save}
          </Button>
        </Box>
      </form>
    </SettingsPage>
  );
}
