import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ActiveChatFields } from '../../../../api/inbox/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { api, errorDescriptions, HttpError } from '../../providers/httpClient';
import { renderCustomerOption } from '../../common/CustomerOption';
import { apiList } from '../contact/listApi';
import { useDebounced } from '../../common/useDebounced';
import { counterKey, listKeyPrefix } from '../segments/useSegments';
import { useWorkspaceChannels } from '../queries';
import { useSession } from '../../providers/session';
import { maskPhone, phoneDigits, PHONE_MASK_LENGTH, PHONE_MAX_DIGITS } from './phoneMask';
import { EMPTY_VALUES, missingVariables, TemplateFields, templateKey, templateSlots, type TemplateValues, type WhatsappTemplate } from '../whatsappTemplates/TemplateFields';

const t = texts.inboxPanels.newMessage;
const tt = texts.whatsappTemplates;

/** SPEC §3 platform id of WhatsApp: outbound first messages exist only there. */
const WHATSAPP = 1;
/** SPEC §9: customer suggestions are limited to 30. */
const SUGGESTION_LIMIT = 30;
/** Fewer digits match too many contacts to be useful. */
const SUGGEST_FROM_DIGITS = 3;

interface Channel {
  id: number;
  channelId: string;
  platformId: number;
  description: string | null;
  name: string | null;
  phone: string | null;
}

interface CustomerSuggestion {
  id: number;
  name: string;
  phone: string | null;
  email: string | null;
  avatar: string | null;
}

interface NewMessageForm {
  workspacePlatformId: number | '';
  phone: string;
  name: string;
  content: string;
  accept: boolean;
}

const FIELDS = ['workspacePlatformId', 'phone', 'name', 'content', 'accept'] as const;

/**
 * SPEC §5 new outbound message: the API's fields for channel and phone, plus what the dialog requires on
 * top of them (name, acceptance of the number-ban risk). The message text is required on a QR line only
 * (a Cloud line sends a template instead), checked on submit.
 */
const NewMessageSchema = ActiveChatFields.omit({ content: true, avatar: true, template: true }).extend({
  name: z.string().trim().min(1, texts.errors.required).max(255),
  content: z.string().trim().max(4000),
  accept: z.literal(true, { error: t.acceptRequired }),
});

/** GET /inbox/active-chat/templates/{id}: whether the line is a Cloud line, and its approved templates. */
interface LineTemplates {
  cloud: boolean;
  templates: WhatsappTemplate[];
}

function useLineTemplates(channelId: number | '' | undefined) {
  return useQuery({
    queryKey: ['inbox', 'active-chat-templates', channelId],
    queryFn: ({ signal }) => api<LineTemplates>(`/inbox/active-chat/templates/${channelId}`, { signal }),
    enabled: typeof channelId === 'number',
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Server errors `template.name` / `template.variables.{i}` as the template fields' keys (`name`, `body.1`). */
function templateFieldErrors(err: unknown, template: WhatsappTemplate | undefined): Record<string, string> {
  if (!(err instanceof HttpError)) return {};
  const out: Record<string, string> = {};
  const slots = template ? templateSlots(template) : [];
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    if (key === 'template.name' || key === 'template' || key === 'template.variables') out.name = message;
    const m = /^template\.variables\.(\d+)$/.exec(key);
    const slot = m ? slots[Number(m[1])] : undefined;
    if (slot) out[`${slot[0]}.${slot[1].name}`] = message;
  }
  return out;
}

const EMPTY: NewMessageForm = { workspacePlatformId: '', phone: '', name: '', content: '', accept: false };

/** The workspace's channels (shared with the inbox's first run) and its WhatsApp lines among them. */
function useWhatsAppChannels(enabled: boolean) {
  const all = useWorkspaceChannels(enabled);
  const lines = useMemo<Channel[] | undefined>(() => all.data?.filter((c) => c.platformId === WHATSAPP || c.channelId === 'whatsapp'), [all.data]);
  return { ...all, data: lines, none: all.data?.length === 0 };
}

function useCustomerSuggestions(phone: string) {
  const digits = useDebounced(phoneDigits(phone));
  const query = useQuery({
    queryKey: ['inbox', 'customerSuggestions', digits],
    queryFn: ({ signal }) => apiList<CustomerSuggestion>('/customer/all-customers', { query: digits, limit: SUGGESTION_LIMIT }, signal),
    enabled: digits.length >= SUGGEST_FROM_DIGITS && digits.length <= PHONE_MAX_DIGITS,
    staleTime: 30_000,
  });
  return (query.data?.data ?? []).filter((c) => c.phone);
}

/**
 * SPEC §2 'new outbound WhatsApp message': channel, phone (masked), name, message and the acceptance
 * of the number-ban risk, all required before 'Enviar'. The conversation it creates opens at once.
 */
export function NewMessageDialog({ open, onClose, initial }: { open: boolean; onClose: () => void; initial?: { phone?: string | null; name?: string | null } }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const channels = useWhatsAppChannels(open);
  const canManageChannels = (useSession()?.workspace.accessLevel ?? 0) >= 6;
  const { control, handleSubmit, setError, reset, setValue, getValues, formState } = useForm<NewMessageForm>({
    resolver: zodResolver(NewMessageSchema),
    defaultValues: EMPTY,
  });
  const values = useWatch({ control });
  const suggestions = useCustomerSuggestions(values.phone ?? '');
  const line = useLineTemplates(values.workspacePlatformId);
  const cloud = line.data?.cloud === true;
  const [selected, setSelected] = useState('');
  const [templateValues, setTemplateValues] = useState<TemplateValues>(EMPTY_VALUES);
  const [templateErrors, setTemplateErrors] = useState<Record<string, string>>({});
  const template = cloud ? line.data?.templates.find((tpl) => templateKey(tpl) === selected) : undefined;
  const message = cloud ? Boolean(template) : Boolean(values.content?.trim()) && line.isSuccess;
  const complete = Boolean(values.workspacePlatformId && phoneDigits(values.phone ?? '').length > 0 && values.name?.trim() && message && values.accept);

  // Opened from a contact (the Contacts page): its phone and name come filled in.
  const initialPhone = initial?.phone ? maskPhone(phoneDigits(initial.phone)) : '';
  const initialName = initial?.name ?? '';
  useEffect(() => {
    if (open) reset({ ...EMPTY, phone: initialPhone, name: initialName });
  }, [open, reset, initialPhone, initialName]);
  // Another line: its own templates.
  useEffect(() => {
    setSelected('');
    setTemplateValues(EMPTY_VALUES);
    setTemplateErrors({});
  }, [values.workspacePlatformId]);
  // One line: it is the only choice.
  const only = channels.data?.length === 1 ? channels.data[0]!.id : undefined;
  useEffect(() => {
    if (open && only && !getValues('workspacePlatformId')) setValue('workspacePlatformId', only);
  }, [open, only, getValues, setValue]);

  const submit = handleSubmit(async (v) => {
    let first: Record<string, unknown>;
    if (cloud) {
      if (!template) return setTemplateErrors({ name: tt.chooseRequired });
      const missing = missingVariables(template, templateValues);
      setTemplateErrors(missing);
      if (Object.keys(missing).length) return;
      first = { template: { name: template.name, language: template.language, variables: templateSlots(template).map(([part, tv]) => templateValues[part][tv.name]!.trim()) } };
    } else {
      if (!v.content.trim()) return setError('content', { type: 'required', message: texts.errors.required }, { shouldFocus: true });
      first = { content: [{ insert: `${v.content.trim()}\n` }] };
    }
    try {
      const created = await api<{ id: number }>('/inbox/active-chat', {
        method: 'POST',
        body: { workspacePlatformId: v.workspacePlatformId, phone: phoneDigits(v.phone), name: v.name.trim(), ...first },
      });
      await Promise.all([queryClient.invalidateQueries({ queryKey: listKeyPrefix }), queryClient.invalidateQueries({ queryKey: counterKey })]);
      notify(t.sent, { type: 'success' });
      void navigate(`/inbox/all/${created.id}`);
      onClose();
    } catch (err) {
      const onTemplate = templateFieldErrors(err, template);
      setTemplateErrors(onTemplate);
      const placed = Object.values(onTemplate);
      const rest = applyServerErrors(err, FIELDS, setError).filter((m) => !placed.includes(m));
      for (const m of rest.length > 0 ? rest : placed.length > 0 ? [] : failureToasts(err)) notify(m, { type: 'error' });
    }
  });

  const channelOptions = useMemo(() => channels.data ?? [], [channels.data]);
  const noChannels = channels.isSuccess && channelOptions.length === 0;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-message-title" aria-describedby="new-message-help">
      <form
        noValidate
        // Dialogs render in a portal, yet React bubbles their submit to a host form (the composer's).
        onSubmit={(e) => {
          e.stopPropagation();
          void submit(e);
        }}
      >
        <DialogTitle id="new-message-title">{t.title}</DialogTitle>
        <DialogContent dividers>
          <DialogContentText id="new-message-help" sx={{ mb: 1 }}>
            {t.help}
          </DialogContentText>
          {noChannels ? (
            <Alert
              severity="info"
              sx={{ mb: 1 }}
              action={
                canManageChannels ? (
                  <Button color="inherit" size="small" component={RouterLink} to="/settings/channels" onClick={onClose}>
                    {t.goToChannels}
                  </Button>
                ) : undefined
              }
            >
              {t.noChannels}
              {channels.none ? ` ${t.noChannelAtAll}` : null}
            </Alert>
          ) : null}
          {channels.isError ? (
            <Alert severity="error" sx={{ mb: 1 }}>
              {t.channelsError}
            </Alert>
          ) : null}
          <Controller
            name="workspacePlatformId"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                select
                id="new-message-channel"
                label={t.channel}
                required
                fullWidth
                margin="dense"
                disabled={noChannels}
                name={field.name}
                inputRef={field.ref}
                value={field.value}
                onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                onBlur={field.onBlur}
                error={fieldState.invalid}
                helperText={fieldState.error?.message}
              >
                {channelOptions.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.description || c.name || c.phone || `#${c.id}`}
                    {c.phone && c.description ? ` (${c.phone})` : ''}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            name="phone"
            control={control}
            render={({ field, fieldState }) => (
              <Autocomplete
                id="new-message-phone"
                freeSolo
                filterOptions={(x) => x}
                options={suggestions}
                getOptionLabel={(o) => (typeof o === 'string' ? o : maskPhone(o.phone ?? ''))}
                inputValue={field.value}
                onInputChange={(_e, v, reason) => {
                  if (reason !== 'reset') field.onChange(maskPhone(v));
                }}
                onChange={(_e, option) => {
                  if (option && typeof option !== 'string') {
                    field.onChange(maskPhone(option.phone ?? ''));
                    if (!getValues('name').trim()) setValue('name', option.name, { shouldValidate: formState.isSubmitted });
                  }
                }}
                renderOption={renderCustomerOption((o) => maskPhone(o.phone ?? ''))}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    name={field.name}
                    inputRef={field.ref}
                    label={t.phone}
                    required
                    type="tel"
                    margin="dense"
                    placeholder="+55 (11) 91234-5678"
                    error={fieldState.invalid}
                    helperText={fieldState.error?.message ?? t.phoneHelp}
                    slotProps={{ htmlInput: { ...params.inputProps, maxLength: PHONE_MASK_LENGTH, inputMode: 'tel' } }}
                  />
                )}
              />
            )}
          />
          <FormTextField control={control} name="name" label={t.name} required margin="dense" />
          {line.isFetching && !line.data ? <LinearProgress aria-label={tt.loading} sx={{ my: 1 }} /> : null}
          {line.isError ? (
            <Alert severity="error" sx={{ my: 1 }}>
              {errorDescriptions(line.error).join(' ')}
            </Alert>
          ) : null}
          {cloud && line.data ? (
            <Box data-testid="new-message-template" sx={{ display: 'flex', flexDirection: 'column', gap: 1, my: 1 }}>
              <Alert severity="info" sx={{ py: 0 }}>
                {tt.firstMessage}
              </Alert>
              <TemplateFields
                idPrefix="new-message-template"
                templates={line.data.templates}
                selected={selected}
                onSelect={(key) => {
                  setSelected(key);
                  setTemplateValues(EMPTY_VALUES);
                  setTemplateErrors({});
                }}
                values={templateValues}
                onChange={(next, changed) => {
                  setTemplateValues(next);
                  setTemplateErrors((e) => ({ ...e, [changed]: '' }));
                }}
                errors={templateErrors}
              />
            </Box>
          ) : (
            <FormTextField control={control} name="content" label={t.message} required multiline minRows={3} maxRows={8} margin="dense" />
          )}
          <Controller
            name="accept"
            control={control}
            render={({ field, fieldState }) => (
              <FormControl error={fieldState.invalid} margin="dense">
                <FormControlLabel
                  control={<Checkbox name={field.name} inputRef={field.ref} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                  label={t.accept}
                />
                {fieldState.error?.message ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
              </FormControl>
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{texts.common.cancel}</Button>
          <Button type="submit" variant="contained" disabled={!complete} loading={formState.isSubmitting}>
            {t.send}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
