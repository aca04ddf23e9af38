import { useRef, useState } from 'react';
import { Controller, useController, type Control } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PreChatField, PreChatMode, WidgetPosition } from '../../../../../api/channels/widget/schema';
import { GREETING_MAX, OUT_OF_HOURS_MAX, TAGLINE_MAX } from '../../../../../api/channels/widget/schema';
import { texts } from '../../../i18n/ptBR';
import { FormTextField } from '../../../forms/FormTextField';
import { failureToasts } from '../../../forms/serverErrors';
import { api, request } from '../../../providers/httpClient';

const t = texts.channels.widget;
/** SPEC §5: avatar upload, image, max 1MB (the server checks it again, by content). */
const MAX_LOGO_BYTES = 1024 * 1024;

export interface WidgetChannelForm {
  description: string;
  avatar: string;
  greeting: string;
  tagline: string;
  logo: string | null;
  position: WidgetPosition;
  preChat: Record<PreChatField, PreChatMode>;
  showResponseTime: boolean;
  businessHoursId: number | null;
  outOfHoursMessage: string;
  allowedSites: string[];
}

const PRE_CHAT_LABELS: Record<PreChatField, string> = { name: t.preChatName, email: t.preChatEmail, phone: t.preChatPhone };
const MODE_LABELS: Record<PreChatMode, string> = { off: t.preChatOff, optional: t.preChatOptional, required: t.preChatRequired };

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 3, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" fontWeight={700}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function ColorField({ control }: { control: Control<WidgetChannelForm> }) {
  // The text field registers the input; the picker beside it only reads and sets the same value.
  const { field } = useController({ control, name: 'avatar' });
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5 }}>
      <FormTextField control={control} name="avatar" label={t.color} helperText={t.colorHelp} required fullWidth={false} sx={{ flex: 1 }} slotProps={{ htmlInput: { maxLength: 7, spellCheck: false } }} />
      <Box
        component="input"
        type="color"
        aria-label={t.colorPicker}
        value={/^#[0-9a-fA-F]{6}$/.test(field.value ?? '') ? field.value.toLowerCase() : '#000000'}
        onChange={(e) => field.onChange((e.target as HTMLInputElement).value.toUpperCase())}
        sx={{ mt: 2, width: 56, height: 56, p: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: 'pointer' }}
      />
    </Box>
  );
}

/** The company's logo: the product's avatar upload (POST /integrations/widget/logo); saved with the form. */
function LogoField({ control }: { control: Control<WidgetChannelForm> }) {
  const { field, fieldState } = useController({ control, name: 'logo' });
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    if (file.size > MAX_LOGO_BYTES) return notify(texts.integrations.avatar.tooLarge, { type: 'error' });
    const form = new FormData();
    form.append('avatar', file);
    setBusy(true);
    try {
      const res = await request('/api/integrations/widget/logo', { method: 'POST', body: form });
      field.onChange((res.json as { data: { fileName: string }[] }).data[0].fileName);
      notify(t.logoUploaded, { type: 'success' });
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
    setBusy(false);
  };
  return (
    <Box sx={{ mt: 2 }}>
      <FormLabel component="div" sx={{ mb: 1 }}>
        {t.logo}
      </FormLabel>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Avatar src={field.value ?? undefined} alt="" sx={{ width: 48, height: 48 }} />
        <Button variant="outlined" size="small" disabled={busy} onClick={() => input.current?.click()}>
          {t.logoUpload}
        </Button>
        {field.value ? (
          <Button size="small" onClick={() => field.onChange(null)}>
            {t.logoRemove}
          </Button>
        ) : null}
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          data-testid="widget-logo-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
      </Box>
      <FormHelperText error={fieldState.invalid}>{fieldState.error?.message ?? t.logoHelp}</FormHelperText>
    </Box>
  );
}

function PreChatFields({ control }: { control: Control<WidgetChannelForm> }) {
  const { field, fieldState } = useController({ control, name: 'preChat' });
  const value = field.value;
  return (
    <Section title={t.preChat}>
      <Typography variant="body2" color="text.secondary">
        {t.preChatHelp}
      </Typography>
      {(Object.keys(PRE_CHAT_LABELS) as PreChatField[]).map((f) => (
        <FormControl key={f} component="fieldset" sx={{ display: 'flex', mt: 1.5 }}>
          <FormLabel component="legend" id={`prechat-${f}`}>
            {PRE_CHAT_LABELS[f]}
          </FormLabel>
          <RadioGroup row aria-labelledby={`prechat-${f}`} name={`preChat.${f}`} value={value[f]} onChange={(e) => field.onChange({ ...value, [f]: e.target.value as PreChatMode })}>
            {(Object.keys(MODE_LABELS) as PreChatMode[]).map((m) => (
              <FormControlLabel key={m} value={m} control={<Radio />} label={MODE_LABELS[m]} />
            ))}
          </RadioGroup>
        </FormControl>
      ))}
      {fieldState.error ? <FormHelperText error>{fieldState.error.message}</FormHelperText> : null}
    </Section>
  );
}

function ServiceFields({ control }: { control: Control<WidgetChannelForm> }) {
  const hours = useQuery({ queryKey: ['business-hours', 'names'], queryFn: () => api<{ id: number; name: string }[]>('/business-hours?limit=1000') });
  return (
    <Section title={t.service}>
      <Controller
        control={control}
        name="showResponseTime"
        render={({ field }) => (
          <FormControl sx={{ mt: 1 }}>
            <FormControlLabel control={<Checkbox name={field.name} checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />} label={t.showResponseTime} />
            <FormHelperText sx={{ mt: 0 }}>{t.showResponseTimeHelp}</FormHelperText>
          </FormControl>
        )}
      />
      <Controller
        control={control}
        name="businessHoursId"
        render={({ field, fieldState }) => (
          <TextField
            select
            id="field-businessHoursId"
            label={t.businessHours}
            name={field.name}
            value={field.value === null || field.value === undefined ? '' : String(field.value)}
            onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
            error={fieldState.invalid}
            helperText={fieldState.error?.message ?? (hours.isError ? t.businessHoursLoadError : t.businessHoursHelp)}
            fullWidth
            margin="normal"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t.businessHoursNone}</MenuItem>
            {(hours.data ?? []).map((h) => (
              <MenuItem key={h.id} value={String(h.id)}>
                {h.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <FormTextField control={control} name="outOfHoursMessage" label={t.outOfHours} multiline minRows={2} slotProps={{ htmlInput: { maxLength: OUT_OF_HOURS_MAX } }} />
    </Section>
  );
}

function SitesField({ control }: { control: Control<WidgetChannelForm> }) {
  const { field, fieldState } = useController({ control, name: 'allowedSites' });
  return (
    <Section title={t.sites}>
      <TextField
        id="field-allowedSites"
        label={t.sites}
        name={field.name}
        value={(field.value ?? []).join('\n')}
        onChange={(e) => field.onChange(e.target.value.split('\n'))}
        onBlur={field.onBlur}
        inputRef={field.ref}
        error={fieldState.invalid}
        helperText={fieldState.error?.message ?? t.sitesHelp}
        placeholder="loja.com.br"
        multiline
        minRows={2}
        fullWidth
        margin="normal"
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
      />
    </Section>
  );
}

/** The fields shared by the new and the edit page (SPEC §3 Chat widget and the widget's settings, issue 28). */
export function WidgetChannelInputs({ control }: { control: Control<WidgetChannelForm> }) {
  return (
    <>
      <FormTextField control={control} name="description" label={t.description} helperText={t.descriptionHelp} required slotProps={{ htmlInput: { maxLength: 120 } }} />
      <Section title={t.look}>
        <ColorField control={control} />
        <FormTextField control={control} name="greeting" label={t.greeting} helperText={t.greetingHelp} multiline minRows={2} slotProps={{ htmlInput: { maxLength: GREETING_MAX } }} />
        <FormTextField control={control} name="tagline" label={t.tagline} helperText={t.taglineHelp} slotProps={{ htmlInput: { maxLength: TAGLINE_MAX } }} />
        <LogoField control={control} />
        <Controller
          control={control}
          name="position"
          render={({ field }) => (
            <FormControl component="fieldset" sx={{ mt: 2, display: 'flex' }}>
              <FormLabel component="legend" id="widget-position">
                {t.position}
              </FormLabel>
              <RadioGroup row aria-labelledby="widget-position" name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value as WidgetPosition)}>
                <FormControlLabel value="right" control={<Radio />} label={t.positionRight} />
                <FormControlLabel value="left" control={<Radio />} label={t.positionLeft} />
              </RadioGroup>
            </FormControl>
          )}
        />
      </Section>
      <PreChatFields control={control} />
      <ServiceFields control={control} />
      <SitesField control={control} />
    </>
  );
}
