import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { WhatsappChannelSchema } from '../../../../../api/channels/whatsapp/schema';
import { maskLinePhone } from '../../../../../api/channels/whatsapp/phone';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../../forms/serverErrors';
import { errorDescriptions } from '../../../providers/httpClient';
import { SettingsPage } from '../../SettingsPage';
import { channelsKey } from '../channelKeys';
import { channelStatusLabel, useChannelCreate } from '../channelPage';
import { BackToChannels, ChannelAddForm, ChannelCopyField, ChannelPageRoute, ChannelSavedPanel } from '../ChannelPageParts';
import { maskPhoneInput } from './phoneMask';
import { QrCodeModal } from './QrCodeModal';
import { whatsappApi, whatsappLineKey, type WhatsappLine } from './whatsappApi';
import { texts } from '../../../i18n/ptBR';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.whatsapp;

type WhatsappForm = z.input<typeof WhatsappChannelSchema>;

const FIELDS = ['name', 'phone', 'allowGroups', 'provider', 'phoneNumberId', 'businessAccountId', 'accessToken', 'appSecret'] as const;

/**
 * /settings/channels/add/whatsapp and /settings/channels/whatsapp/{id} (docs/channels/whatsapp.md):
 * a new line, or one line's settings.
 */
export function WhatsappChannelPage() {
  return <ChannelPageRoute details={WhatsappLineDetails} notFound={t.notFound} add={<NewWhatsappLine />} />;
}

/** The webhook URLs (the line's own, and the Meta app's shared one) and verify token of a Cloud line, to paste into Meta's dashboard. */
function CloudWebhookFields({ line }: { line: WhatsappLine }) {
  if (line.provider !== 'cloud' || !line.webhookUrl || !line.verifyToken) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1">{t.webhookTitle}</Typography>
      <ChannelCopyField id="field-webhookUrl" label={t.webhookUrl} value={line.webhookUrl} namedButton />
      <ChannelCopyField id="field-verifyToken" label={t.verifyToken} value={line.verifyToken} namedButton />
      {line.appWebhookUrl ? (
        <>
          <ChannelCopyField id="field-appWebhookUrl" label={t.appWebhookUrl} value={line.appWebhookUrl} namedButton />
          <Typography variant="body2" color="text.secondary">
            {t.appWebhookHelp}
          </Typography>
        </>
      ) : null}
    </Box>
  );
}

/**
 * A new WhatsApp line, by QR code or through the official Cloud API. A QR line opens the QR reading modal
 * at once; a Cloud line shows the webhook URL and verify token (the secrets are never shown again).
 * `savedText` is the toast ('Linha de WhatsApp salva'; 'Número salvo' on /power-ups/whatsapp).
 */
export function NewWhatsappLine({ savedText = t.saved, backLabel = t.back }: { savedText?: string; backLabel?: string }) {
  const { saved, create } = useChannelCreate<WhatsappLine>('/integrations/whatsapp', savedText);
  const [qrOpen, setQrOpen] = useState(true);
  const { control, handleSubmit, setError, formState } = useForm<WhatsappForm>({
    resolver: zodResolver(WhatsappChannelSchema),
    defaultValues: { name: '', phone: '', allowGroups: false, provider: 'qr', phoneNumberId: '', businessAccountId: '', accessToken: '', appSecret: '' },
  });
  const provider = useWatch({ control, name: 'provider' });

  const submit = handleSubmit((values) => create(values, FIELDS, setError));

  if (saved) {
    return (
      <ChannelSavedPanel title={saved.name} savedText={savedText} backLabel={backLabel}>
        <CloudWebhookFields line={saved} />
        {saved.provider === 'qr' ? (
          <>
            <Button variant="outlined" sx={{ mt: 2 }} onClick={() => setQrOpen(true)}>
              {t.readQr}
            </Button>
            <QrCodeModal channelId={saved.id} open={qrOpen} onClose={() => setQrOpen(false)} />
          </>
        ) : null}
      </ChannelSavedPanel>
    );
  }

  return (
    <ChannelAddForm title={t.newTitle} onSubmit={submit} submitLabel={t.save} submitting={formState.isSubmitting}>
      <FormTextField control={control} name="name" label={t.name} required slotProps={{ htmlInput: { maxLength: 120 } }} />
      <Controller
        control={control}
        name="phone"
        render={({ field, fieldState }) => (
          <TextField
            id="field-phone"
            label={t.phone}
            name={field.name}
            value={field.value ?? ''}
            onChange={(e) => field.onChange(maskPhoneInput(e.target.value))}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={fieldState.invalid}
            helperText={fieldState.error?.message ?? t.phoneHelp}
            required
            fullWidth
            margin="normal"
            slotProps={{ htmlInput: { maxLength: 19, inputMode: 'tel' } }}
          />
        )}
      />
      <Controller
        control={control}
        name="allowGroups"
        render={({ field }) => <FormControlLabel control={<Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t.allowGroups} />}
      />
      <Box sx={{ mt: 2 }}>
        <FormLabel id="provider-label">{t.provider}</FormLabel>
        <Controller
          control={control}
          name="provider"
          render={({ field }) => (
            <RadioGroup row aria-labelledby="provider-label" value={field.value ?? 'qr'} onChange={(e) => field.onChange(e.target.value)}>
              <FormControlLabel value="qr" control={<Radio />} label={t.qr} />
              <FormControlLabel value="cloud" control={<Radio />} label={t.cloud} />
            </RadioGroup>
          )}
        />
      </Box>
      {provider === 'cloud' ? (
        <Box>
          <Alert severity="info" sx={{ my: 1 }}>
            {t.cloudHelp}
          </Alert>
          <FormTextField control={control} name="phoneNumberId" label={t.phoneNumberId} required />
          <FormTextField control={control} name="businessAccountId" label={t.businessAccountId} required />
          <FormTextField control={control} name="accessToken" label={t.accessToken} type="password" required />
          <FormTextField control={control} name="appSecret" label={t.appSecret} type="password" required />
        </Box>
      ) : (
        <Alert severity="info" sx={{ my: 1 }}>
          {t.qrAddHelp}
        </Alert>
      )}
    </ChannelAddForm>
  );
}

const EditSchema = z.object({
  name: z.string().trim().min(1, 'O nome é obrigatório.').max(120, 'No máximo 120 caracteres.'),
  allowGroups: z.boolean(),
  accessToken: z.string().trim().max(1024).optional(),
  appSecret: z.string().trim().max(255).optional(),
});
type EditForm = z.infer<typeof EditSchema>;

/**
 * One line's settings: name and allowGroups editable, the phone shown but not editable (SPEC §5), the
 * status kept live by `channel.status` (ChannelStatusBanner syncs the cache), 'Reiniciar' and the QR
 * reading modal for QR lines, the webhook to paste for Cloud lines.
 */
export function WhatsappLineDetails({ id, backLabel = t.back }: { id: number; backLabel?: string }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [qrOpen, setQrOpen] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const { data: line, error } = useQuery({ queryKey: whatsappLineKey(id), queryFn: () => whatsappApi.get(id), retry: false });
  const { control, handleSubmit, setError, formState } = useForm<EditForm>({
    resolver: zodResolver(EditSchema),
    values: line ? { name: line.name, allowGroups: line.allowGroups, accessToken: '', appSecret: '' } : undefined,
    resetOptions: { keepDirtyValues: true },
  });

  if (error) return <Alert severity="error">{errorDescriptions(error).join(' ') || t.notFound}</Alert>;
  if (!line) return <LinearProgress aria-label={texts.common.loading} />;

  const save = handleSubmit(async (values) => {
    try {
      const body = { name: values.name, allowGroups: values.allowGroups, ...(values.accessToken ? { accessToken: values.accessToken } : {}), ...(values.appSecret ? { appSecret: values.appSecret } : {}) };
      const updated = await whatsappApi.update(id, body);
      queryClient.setQueryData(whatsappLineKey(id), updated);
      void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(t.saved, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, ['name', 'allowGroups', 'accessToken', 'appSecret'], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const restart = async () => {
    setRestarting(true);
    try {
      const res = await whatsappApi.restart(id);
      queryClient.setQueryData<WhatsappLine>(whatsappLineKey(id), (old) => (old ? { ...old, status: res.status, statusReason: null } : old));
      notify(t.restarted, { type: 'info' });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setRestarting(false);
    }
  };

  const qr = line.provider === 'qr';
  return (
    <SettingsPage title={line.name || t.editTitle}>
      <Typography data-testid="whatsapp-line-status">
        {t.status}: <strong>{channelStatusLabel(line.status, 'whatsapp', line.statusReason)}</strong>
      </Typography>
      <Typography color="text.secondary">
        {t.provider}: {qr ? t.qr : t.cloud}
      </Typography>
      {qr && line.status === 'qr_code' ? (
        <Alert severity="warning" sx={{ mt: 1 }} action={<Button color="inherit" size="small" onClick={() => setQrOpen(true)}>{t.readQr}</Button>}>
          {t.qrPending}
        </Alert>
      ) : null}
      {line.status === 'disconnected' ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {qr ? t.disconnectedQr : t.disconnectedCloud}
        </Alert>
      ) : null}
      <form onSubmit={save} noValidate>
        <FormTextField control={control} name="name" label={t.name} required slotProps={{ htmlInput: { maxLength: 120 } }} />
        <TextField id="field-phone" label={t.phone} value={line.phone ? maskLinePhone(line.phone) : ''} helperText={t.phoneLocked} fullWidth margin="normal" disabled />
        <Controller
          control={control}
          name="allowGroups"
          render={({ field }) => <FormControlLabel control={<Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t.allowGroups} />}
        />
        {qr ? null : (
          <>
            <FormTextField control={control} name="accessToken" label={t.newAccessToken} helperText={t.keepSecretHelp} type="password" autoComplete="off" />
            <FormTextField control={control} name="appSecret" label={t.newAppSecret} helperText={t.keepSecretHelp} type="password" autoComplete="off" />
          </>
        )}
        <Box sx={{ mt: 2, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t.save}
          </Button>
          {qr ? (
            <>
              <Button variant="outlined" onClick={() => void restart()} disabled={restarting}>
                {t.restart}
              </Button>
              <Button variant="outlined" onClick={() => setQrOpen(true)}>
                {t.readQr}
              </Button>
            </>
          ) : null}
        </Box>
      </form>
      <CloudWebhookFields line={line} />
      <CsatSettingsSection channelId={id} />
      <BackToChannels label={backLabel} />
      {qr ? <QrCodeModal channelId={id} open={qrOpen} onClose={() => setQrOpen(false)} /> : null}
    </SettingsPage>
  );
}
