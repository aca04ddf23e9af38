import { useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import { useNotify } from 'react-admin';
import { REPEATS, upcoming, zonedInstant, localOf, parseLocal, type Repeat } from '../../../api/schedules/recurrence';
import { SCHEDULE_VARIABLES, unknownVariables } from '../../../api/conversations/messageVariables';
import { MAX_MESSAGE_CHARS, type ScheduleUpdateReq } from '../../../api/schedules/schema';
import { api, errorDescriptions, HttpError } from '../providers/httpClient';
import { format } from '../i18n/format';
import { INBOX, Platform } from '../inbox/constants';
import { uploadFiles } from '../inbox/inboxApi';
import { useWhatsappWindow } from '../inbox/whatsappTemplates/useWhatsappWindow';
import { EMPTY_VALUES, missingVariables, TemplateFields, templateKey, type TemplateValues, type WhatsappTemplate } from '../inbox/whatsappTemplates/TemplateFields';
import type { Schedule } from './schedulesApi';
import { scheduleTexts } from './texts';

const t = scheduleTexts.dialog;

/** The conversation a schedule goes into, as much as the form needs (the inbox's Conversation fits). */
export interface ScheduleTarget {
  id: number;
  platformId: number;
  lastMessageAt: string;
}

interface FileEntry {
  key: string;
  fileName: string;
  mime: string;
  size: number;
}

/** "29/11/2026 09:00" of an instant on the workspace's wall clock. */
export function zonedDateTime(at: Date | string, zone: string): string {
  try {
    return new Intl.DateTimeFormat('pt-BR', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(at));
  } catch {
    return new Date(at).toLocaleString('pt-BR');
  }
}

/** The next whole quarter hour at least 30 minutes ahead, on the workspace's wall clock. */
function defaultSendAt(zone: string): string {
  const q = 15 * 60_000;
  return localOf(new Date(Math.ceil((Date.now() + 30 * 60_000) / q) * q), zone);
}

/**
 * The 'Agendar' form (docs/scheduled-messages.md): date and time on the workspace's wall clock, repetition
 * and its end, the text with its variables, one file (16 MB, uploaded at once like the composer's), and on a
 * WhatsApp Cloud line an approved template when the send may fall outside the 24-hour window. The server's
 * field errors land on their fields.
 */
export function ScheduleForm({
  target,
  zone,
  initial,
  initialText = '',
  onSubmit,
  onCancel,
}: {
  target: ScheduleTarget;
  zone: string;
  initial?: Schedule;
  initialText?: string;
  onSubmit: (body: ScheduleUpdateReq) => Promise<void>;
  onCancel: () => void;
}) {
  const notify = useNotify();
  const [sendAt, setSendAt] = useState(initial?.sendAt ?? defaultSendAt(zone));
  const [repeat, setRepeat] = useState<Repeat>(initial?.repeat ?? 'none');
  const [repeatUntil, setRepeatUntil] = useState(initial?.repeatUntil ?? '');
  const [text, setText] = useState(initial?.text ?? initialText);
  const [file, setFile] = useState<FileEntry | null>(initial?.file ?? null);
  const [uploading, setUploading] = useState(false);
  const [selected, setSelected] = useState(initial?.template ? templateKey(initial.template) : '');
  const [values, setValues] = useState<TemplateValues>(initial?.template ? { header: initial.template.header, body: initial.template.body } : EMPTY_VALUES);
  const [wantsTemplate, setWantsTemplate] = useState(Boolean(initial?.template));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const waWindow = useWhatsappWindow(target);
  const cloud = target.platformId === Platform.WHATSAPP && waWindow?.cloud === true;
  const dueAt = parseLocal(sendAt) ? zonedInstant(sendAt, zone) : null;
  const templateNeeded = cloud && (repeat !== 'none' || !waWindow?.open || !waWindow.closesAt || (dueAt !== null && Date.parse(waWindow.closesAt) <= dueAt.getTime()));
  const useTemplate = cloud && (templateNeeded || wantsTemplate);
  const templates = useQuery({
    queryKey: ['inbox', 'whatsapp-templates', target.id],
    queryFn: ({ signal }) => api<WhatsappTemplate[]>(`/inbox/whatsapp-templates/${target.id}`, { signal }),
    enabled: useTemplate,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const template = templates.data?.find((tpl) => templateKey(tpl) === selected);
  const next = useMemo(() => {
    if (!parseLocal(sendAt)) return [];
    try {
      return upcoming({ startsLocal: sendAt, timeZone: zone, repeat, repeatUntil: repeat === 'none' ? null : repeatUntil || null }, 0, 3);
    } catch {
      return [];
    }
  }, [sendAt, zone, repeat, repeatUntil]);
  const unknown = unknownVariables(text);

  const insertVariable = (name: string) => {
    const el = textRef.current;
    const token = `{{${name}}}`;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + token + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const pickFile = async (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > INBOX.fileLimitBytes) {
      setErrors((e) => ({ ...e, file: t.tooBig }));
      return;
    }
    setUploading(true);
    try {
      const [entry] = await uploadFiles([picked]);
      if (entry) setFile({ key: entry.key, fileName: entry.fileName, mime: entry.mime, size: entry.size });
      setErrors(({ file: _drop, ...rest }) => rest);
    } catch (err) {
      setErrors((e) => ({ ...e, file: errorDescriptions(err).join(' ') }));
    } finally {
      setUploading(false);
    }
  };

  const submit = async () => {
    if (useTemplate && template) {
      const missing = missingVariables(template, values);
      if (Object.keys(missing).length) {
        setErrors(Object.fromEntries(Object.entries(missing).map(([k, v]) => [`template.${k}`, v])));
        return;
      }
    }
    const body: ScheduleUpdateReq = {
      sendAt,
      repeat,
      repeatUntil: repeat === 'none' ? null : repeatUntil || null,
      text: useTemplate ? '' : text,
      file: useTemplate ? null : file ? { key: file.key } : null,
      template: useTemplate && template ? { name: template.name, language: template.language, header: values.header, body: values.body } : null,
    };
    setSaving(true);
    setErrors({});
    try {
      await onSubmit(body);
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  // TemplateFields keys its errors `name` and `header.{var}` / `body.{var}`; the api's are under `template.`.
  const templateErrors = Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith('template.') ? [[k.slice('template.'.length), v]] : k === 'template' ? [['name', v]] : [])));

  return (
    <Box component="form" aria-label={initial ? t.editTitle : t.title} onSubmit={(e) => { e.preventDefault(); void submit(); }} sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="datetime-local"
          label={t.when}
          value={sendAt}
          onChange={(e) => setSendAt(e.target.value)}
          error={!!errors.sendAt}
          helperText={errors.sendAt || format(t.zone, { zone })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'schedule-send-at', step: 60 } }}
          sx={{ flex: 1 }}
          required
        />
        <TextField select label={t.repeat} value={repeat} onChange={(e) => setRepeat(e.target.value as Repeat)} error={!!errors.repeat} helperText={errors.repeat} sx={{ minWidth: 180 }} slotProps={{ htmlInput: { 'data-testid': 'schedule-repeat' } }}>
          {REPEATS.map((r) => (
            <MenuItem key={r} value={r}>
              {scheduleTexts.repeats[r]}
            </MenuItem>
          ))}
        </TextField>
        {repeat !== 'none' ? (
          <TextField type="date" label={t.until} value={repeatUntil} onChange={(e) => setRepeatUntil(e.target.value)} error={!!errors.repeatUntil} helperText={errors.repeatUntil || t.untilHelp} slotProps={{ inputLabel: { shrink: true } }} />
        ) : null}
      </Stack>
      {next.length ? (
        <Typography variant="body2" color="text.secondary" data-testid="schedule-next">
          {t.next}: {next.map((o) => zonedDateTime(o.dueAt, zone)).join(' · ')}
        </Typography>
      ) : null}

      {cloud ? (
        <Alert severity={templateNeeded ? 'warning' : 'info'} data-testid="schedule-window">
          {t.windowCloud}{' '}
          {templateNeeded ? (waWindow?.open ? t.templateNeeded : t.windowClosed) : waWindow?.closesAt ? format(t.windowOpenUntil, { time: zonedDateTime(waWindow.closesAt, zone) }) : null}
          {!templateNeeded ? (
            <Box>
              <Button size="small" onClick={() => setWantsTemplate((v) => !v)} sx={{ mt: 0.5, px: 0 }}>
                {wantsTemplate ? t.cancel : t.useTemplate}
              </Button>
            </Box>
          ) : null}
        </Alert>
      ) : null}

      {useTemplate ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          {templates.isPending ? (
            <Typography variant="body2">{t.templatesLoading}</Typography>
          ) : templates.isError ? (
            <Alert severity="error">{[t.templatesError, ...errorDescriptions(templates.error)].join(' ')}</Alert>
          ) : (
            <TemplateFields
              templates={templates.data}
              selected={selected}
              onSelect={(key) => {
                setSelected(key);
                setValues(EMPTY_VALUES);
              }}
              values={values}
              onChange={(v) => setValues(v)}
              errors={templateErrors}
              idPrefix="schedule-template"
            />
          )}
          <Typography variant="caption" color="text.secondary">
            {t.templateVariables}
          </Typography>
        </Box>
      ) : (
        <>
          <Box>
            <TextField
              inputRef={textRef}
              label={t.text}
              placeholder={t.textPlaceholder}
              value={text}
              onChange={(e) => setText(e.target.value)}
              multiline
              minRows={3}
              maxRows={10}
              fullWidth
              error={!!errors.text}
              helperText={errors.text || (unknown.length ? format(t.unknownVariables, { names: unknown.map((n) => `{{${n}}}`).join(', ') }) : t.variablesHelp)}
              slotProps={{ htmlInput: { maxLength: MAX_MESSAGE_CHARS, 'data-testid': 'schedule-text' } }}
            />
            <Box role="group" aria-label={t.insertVariable} sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
              {SCHEDULE_VARIABLES.map((v) => (
                <Chip key={v} size="small" variant="outlined" label={`{{${v}}}`} title={scheduleTexts.variables[v]} onClick={() => insertVariable(v)} />
              ))}
            </Box>
          </Box>
          <Box>
            {file ? (
              <Chip icon={<AttachFile />} label={file.fileName} onDelete={() => setFile(null)} data-testid="schedule-file" slotProps={{ root: { 'aria-label': `${t.removeFile}: ${file.fileName}` } as object }} />
            ) : (
              <Button startIcon={uploading ? <CircularProgress size={16} /> : <AttachFile />} onClick={() => fileRef.current?.click()} disabled={uploading}>
                {uploading ? t.uploading : t.attach}
              </Button>
            )}
            <input ref={fileRef} type="file" hidden aria-label={t.attach} data-testid="schedule-file-input" onChange={(e) => { void pickFile(e.target.files?.[0]); e.target.value = ''; }} />
            <Typography variant="caption" color={errors.file ? 'error' : 'text.secondary'} sx={{ display: 'block' }}>
              {errors.file || t.fileLimit}
            </Typography>
          </Box>
        </>
      )}

      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button onClick={onCancel} disabled={saving}>
          {t.close}
        </Button>
        <Button type="submit" variant="contained" disabled={saving || uploading || (useTemplate && !template)} data-testid="schedule-submit">
          {initial ? t.saveEdit : t.save}
        </Button>
      </Box>
    </Box>
  );
}
