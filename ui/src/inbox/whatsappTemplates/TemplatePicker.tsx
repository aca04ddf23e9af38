import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { texts } from '../../i18n/ptBR';
import { api, errorDescriptions, HttpError } from '../../providers/httpClient';
import { useSession } from '../../providers/session';
import { applyConversation, applyMessage, knownConversation } from '../applyChanges';
import type { Conversation, Message } from '../types';
import { EMPTY_VALUES, missingVariables, TemplateFields, templateKey, type TemplateValues, type WhatsappTemplate } from './TemplateFields';

const t = texts.whatsappTemplates;

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
  const [values, setValues] = useState<TemplateValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const { data, error, isPending } = useQuery({
    queryKey: ['inbox', 'whatsapp-templates', conversation.id],
    queryFn: ({ signal }) => api<WhatsappTemplate[]>(`/inbox/whatsapp-templates/${conversation.id}`, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const template = data?.find((tpl) => templateKey(tpl) === selected);

  const send = async () => {
    if (!template) return;
    const missing = missingVariables(template, values);
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
      setValues(EMPTY_VALUES);
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
      {data ? (
        <TemplateFields
          templates={data}
          selected={selected}
          onSelect={(key) => {
            setSelected(key);
            setValues(EMPTY_VALUES);
            setErrors({});
          }}
          values={values}
          onChange={(next, changed) => {
            setValues(next);
            setErrors((e) => ({ ...e, [changed]: '' }));
          }}
          errors={errors}
        />
      ) : null}
      {template ? (
        <Box>
          <Button variant="contained" size="small" onClick={() => void send()} disabled={sending}>
            {t.send}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
