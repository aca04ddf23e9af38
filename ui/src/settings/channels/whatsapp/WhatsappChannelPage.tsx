import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { WhatsappChannelSchema } from '../../../../../api/channels/whatsapp/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import type { Channel } from '../channelsApi';
import { useChannelCreate } from '../channelPage';
import { ChannelAddForm, ChannelCopyField, ChannelSavedPanel } from '../ChannelPageParts';
import { maskPhoneInput } from './phoneMask';
import { texts } from '../../../i18n/ptBR';

const t = texts.channels.whatsapp;

type WhatsappForm = z.input<typeof WhatsappChannelSchema>;
type WhatsappChannel = Channel & { provider: 'qr' | 'cloud'; webhookUrl?: string; verifyToken?: string };

const FIELDS = ['name', 'phone', 'allowGroups', 'provider', 'phoneNumberId', 'businessAccountId', 'accessToken', 'appSecret'] as const;

/**
 * /settings/channels/add/whatsapp: a new WhatsApp line, by QR code or through the official Cloud API
 * (docs/channels/whatsapp.md). After saving a Cloud line it shows the webhook URL and verify token to
 * paste into Meta's dashboard (the secrets are never shown again).
 */
export function WhatsappChannelPage() {
  const { saved, create } = useChannelCreate<WhatsappChannel>('/integrations/whatsapp', t.saved);
  const { control, handleSubmit, setError, formState } = useForm<WhatsappForm>({
    resolver: zodResolver(WhatsappChannelSchema),
    defaultValues: { name: '', phone: '', allowGroups: false, provider: 'qr', phoneNumberId: '', businessAccountId: '', accessToken: '', appSecret: '' },
  });
  const provider = useWatch({ control, name: 'provider' });

  const submit = handleSubmit((values) => create(values, FIELDS, setError));

  if (saved) {
    return (
      <ChannelSavedPanel title={saved.name} savedText={t.saved} backLabel={t.back}>
        {saved.provider === 'cloud' && saved.webhookUrl && saved.verifyToken ? (
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle1">{t.webhookTitle}</Typography>
            <ChannelCopyField id="field-webhookUrl" label={t.webhookUrl} value={saved.webhookUrl} />
            <ChannelCopyField id="field-verifyToken" label={t.verifyToken} value={saved.verifyToken} />
          </Box>
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
      ) : null}
    </ChannelAddForm>
  );
}
