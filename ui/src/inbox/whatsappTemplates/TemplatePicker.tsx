import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { api, errorDescriptions, HttpError } from '../../providers/httpClient';
import { useSession } from '../../providers/session';
import { applyConversation, applyMessage, knownConversation } from '../applyChanges';
import type { Conversation, Message } from '../types';

const t = texts.whatsappTemplates;

/** A template as GET /inbox/whatsapp-templates/{id} lists it (api/channels/whatsapp/templates.ts). */
interface TemplateVariable {
  name: string;
  example: string | null;
}
interface WhatsappTemplate {
  id: string;
  name: string;
  language: string;
  header: string | null;
  headerVariables: TemplateVariable[];
  body: string;
  bodyVariables: TemplateVariable[];
  footer: string | null;
  supported: boolean;
  unsupportedReason: string | null;
}

type Values = { header: Record<string, string>; body: Record<string, string> };

const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const fill = (text: string, values: Record<string, string>) => text.replace(VARIABLE, (whole, name: string) => values[name]?.trim() || whole);
const keyOf = (tpl: Pick<WhatsappTemplate, 'name' | 'language'>) => `${tpl.name}|${tpl.language}`;

/**
 * The composer outside WhatsApp's 24-hour window on a Cloud line: free text is replaced by the line's
 * approved templates, each variable a field (Meta's example as placeholder), a preview of the text, and
 * 'Enviar modelo' (POST /inbox/whatsapp-template), with why this is so.
 */
export function TemplatePicker({ conversation }: { conversation: Conversation }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const session = useSession();
  const [selected, setSelected] = useState('');
  const [values, setValues] = useState<Values>({ header: {}, body: {} });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const { data, error, isPending } = useQuery({
    queryKey: ['inbox', 'whatsapp-templates', conversation.id],
    queryFn: ({ signal }) => api<WhatsappTemplate[]>(`/inbox/whatsapp-templates/${conversation.id}`, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const template = useMemo(() => data?.find((tpl) => keyOf(tpl) === selected), [data, selected]);
  const preview = template ? [template.header ? fill(template.header, values.header) : null, fill(template.body, values.body), template.footer].filter(Boolean).join('\n\n') : '';

  const setValue = (part: 'header' | 'body', name: string, value: string) => {
    setValues((v) => ({ ...v, [part]: { ...v[part], [name]: value } }));
    setErrors((e) => ({ ...e, [`${part}.${name}`]: '' }));
  };

  const send = async () => {
    if (!template) return;
    const missing: Record<string, string> = {};
    for (const [part, vars] of [['header', template.headerVariables], ['body', template.bodyVariables]] as const) {
      for (const v of vars) if (!values[part][v.name]?.trim()) missing[`${part}.${v.name}`] = `Preencha a variável {{${v.name}}}.`;
    }
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setSending(true);
    try {
      const stored = await api<Message>('/inbox/whatsapp-template', { method: 'POST', body: { id: conversation.id, name: template.name, language: template.language, header: values.header, body: values.body } });
      applyMessage(qc, stored);
      const current = knownConversation(qc, conversation.id) ?? conversation;
      applyConversation(qc, { ...current, lastMessage: { text: stored.text, type: stored.type, sender: stored.sender, createdAt: stored.createdAt }, lastMessageAt: stored.createdAt }, session?.user.id ?? 0, current);
      notify(t.sent, { type: 'success' });
      setSelected('');
      setValues({ header: {}, body: {} });
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length) {
        setErrors(err.fieldErrors);
      } else {
        for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Box data-testid="template-picker" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Alert severity="info" sx={{ py: 0 }}>
        {t.windowClosed}
      </Alert>
      {isPending ? <LinearProgress aria-label={t.loading} /> : null}
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {data && !data.some((tpl) => tpl.supported) ? <Alert severity="warning">{t.none}</Alert> : null}
      {data?.some((tpl) => tpl.supported) ? (
        <TextField
          select
          size="small"
          id="template-select"
          label={t.choose}
          value={selected}
          onChange={(e) => {
            setSelected(e.target.value);
            setValues({ header: {}, body: {} });
            setErrors({});
          }}
          error={!!errors.name}
          helperText={errors.name}
        >
          {data.map((tpl) => (
            <MenuItem key={keyOf(tpl)} value={keyOf(tpl)} disabled={!tpl.supported} title={tpl.unsupportedReason ?? undefined}>
              {tpl.name} ({tpl.language}){tpl.supported ? '' : ` — ${t.unsupported}`}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      {template ? (
        <>
          {(['header', 'body'] as const).flatMap((part) =>
            (part === 'header' ? template.headerVariables : template.bodyVariables).map((v) => (
              <TextField
                key={`${part}.${v.name}`}
                size="small"
                id={`template-${part}-${v.name}`}
                label={`${part === 'header' ? `${t.header} · ` : ''}${format(t.variable, { name: `{{${v.name}}}` })}`}
                placeholder={v.example ?? undefined}
                value={values[part][v.name] ?? ''}
                onChange={(e) => setValue(part, v.name, e.target.value)}
                error={!!errors[`${part}.${v.name}`]}
                helperText={errors[`${part}.${v.name}`] || undefined}
                slotProps={{ htmlInput: { maxLength: 1024 } }}
              />
            )),
          )}
          <Typography variant="caption" color="text.secondary">
            {t.preview}
          </Typography>
          <Box data-testid="template-preview" sx={{ whiteSpace: 'pre-wrap', fontSize: 14, p: 1, borderRadius: 1, bgcolor: 'action.hover' }}>
            {preview}
          </Box>
          <Box>
            <Button variant="contained" size="small" onClick={() => void send()} disabled={sending}>
              {t.send}
            </Button>
          </Box>
        </>
      ) : null}
    </Box>
  );
}
