import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { WebhookSettingsSchema, WEBHOOK_EVENT_NAMES, type WebhookSettingsReq } from '../../../../api/webhooks/schema';
import { texts } from '../../i18n/ptBR';
import { zodResolver } from '../../forms/zodResolver';
import { FormTextField } from '../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { SettingsPage } from '../SettingsPage';
import { webhookApi, type WebhookSettingsView } from './webhookApi';
import { DeliveryLog } from './DeliveryLog';

const t = texts.webhook;
export const webhookKey = ['webhook'] as const;

type Form = { webhook: string; email: string; subscriptions: Record<(typeof WEBHOOK_EVENT_NAMES)[number], boolean> };

const toForm = (w: WebhookSettingsView): Form => ({ webhook: w.webhook, email: w.email, subscriptions: w.subscriptions });

/** /settings/webhook: URL, e-mail and events; the signing secret (copy, regenerate); the delivery log. */
export function WebhookPage() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const { data, error } = useQuery({ queryKey: webhookKey, queryFn: webhookApi.get, retry: false });
  const { control, handleSubmit, setError, reset, formState } = useForm<Form>({
    resolver: zodResolver(WebhookSettingsSchema) as never,
    defaultValues: { webhook: '', email: '', subscriptions: { 'message:received': false, 'session:status:changed': false, 'person:changed': false } },
  });
  useEffect(() => {
    if (data) reset(toForm(data));
  }, [data, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = await webhookApi.save(values as WebhookSettingsReq);
      queryClient.setQueryData(webhookKey, saved);
      reset(toForm(saved));
      notify(t.saved, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, ['webhook', 'email'], setError as never);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const copy = async () => {
    if (!data?.secret) return;
    await navigator.clipboard.writeText(data.secret);
    notify(t.copied, { type: 'success' });
  };

  const regenerate = async () => {
    try {
      queryClient.setQueryData(webhookKey, await webhookApi.regenerateSecret());
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <SettingsPage title={t.title}>
      {!data && !error ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {data?.disabledAt ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t.disabled}
        </Alert>
      ) : null}
      <Box component="p" sx={{ mt: 0 }}>
        {t.intro}
      </Box>
      <form onSubmit={submit} noValidate>
        <FormTextField name="webhook" control={control} label={t.url} helperText={t.urlHelp} fullWidth margin="normal" required />
        <FormTextField name="email" control={control} label={t.email} type="email" fullWidth margin="normal" />
        <FormLabel component="legend" sx={{ mt: 2 }}>
          {t.events}
        </FormLabel>
        <FormGroup>
          {WEBHOOK_EVENT_NAMES.map((event) => (
            <Controller
              key={event}
              name={`subscriptions.${event}`}
              control={control}
              render={({ field }) => (
                <FormControlLabel control={<Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={`${t.eventNames[event]} (${event})`} />
              )}
            />
          ))}
        </FormGroup>
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {texts.common.save}
          </Button>
        </Box>
      </form>
      {data?.secret ? (
        <Box sx={{ mt: 3 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <TextField
              id="field-secret"
              label={t.secret}
              value={data.secret}
              helperText={t.secretHelp}
              fullWidth
              size="small"
              slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } } }}
            />
            <IconButton aria-label={`${t.copy} ${t.secret}`} onClick={() => void copy()}>
              <ContentCopy />
            </IconButton>
          </Box>
          <Button sx={{ mt: 1 }} onClick={() => setConfirming(true)}>
            {t.regenerate}
          </Button>
          <Confirm isOpen={confirming} title={t.regenerateTitle} content={t.regenerateConfirm} confirm={t.confirm} onConfirm={() => void regenerate()} onClose={() => setConfirming(false)} />
        </Box>
      ) : null}
      {data?.id ? <DeliveryLog /> : null}
    </SettingsPage>
  );
}
