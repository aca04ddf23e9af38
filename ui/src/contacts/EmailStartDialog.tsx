import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { EmailConversationSchema } from '../../../api/contacts/schema';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { api, errorDescriptions, HttpError } from '../providers/httpClient';
import { useWorkspaceChannels } from '../inbox/queries';

const t = texts.contacts.emailDialog;

/** 'Conversar por e-mail' (docs/contacts.md): channel, subject and message; the new conversation opens in the inbox. */
export function EmailStartDialog({ customerId, email, onClose }: { customerId: number; email: string; onClose: () => void }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const channels = useWorkspaceChannels();
  const lines = (channels.data ?? []).filter((c) => c.channelId === 'email');
  const [channel, setChannel] = useState<number | ''>('');
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const chosen = channel === '' && lines.length === 1 ? lines[0]!.id : channel;

  const submit = async () => {
    setFailure(null);
    const parsed = EmailConversationSchema.safeParse({ workspacePlatformId: chosen === '' ? undefined : chosen, subject, content });
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setFieldErrors({});
    setSending(true);
    try {
      const created = await api<{ id: number }>(`/customer/${customerId}/email-conversation`, { method: 'POST', body: parsed.data });
      notify(t.sent, { type: 'success' });
      onClose();
      void navigate(`/inbox/all/${created.id}`);
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length) setFieldErrors(err.fieldErrors);
      setFailure(errorDescriptions(err).join(' '));
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="email-start-title">
      <DialogTitle id="email-start-title">{t.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2, overflowWrap: 'anywhere' }}>{format(t.to, { email })}</DialogContentText>
        {channels.isSuccess && lines.length === 0 ? <Alert severity="info">{t.noChannel}</Alert> : null}
        {failure ? <Alert severity="error" sx={{ mb: 2 }}>{failure}</Alert> : null}
        <TextField select fullWidth margin="dense" label={t.channel} value={chosen} onChange={(e) => setChannel(Number(e.target.value))} error={Boolean(fieldErrors.workspacePlatformId)} helperText={fieldErrors.workspacePlatformId}>
          {lines.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.description || c.name || `#${c.id}`}
            </MenuItem>
          ))}
        </TextField>
        <TextField fullWidth margin="dense" required label={t.subject} value={subject} onChange={(e) => setSubject(e.target.value)} error={Boolean(fieldErrors.subject)} helperText={fieldErrors.subject} />
        <TextField fullWidth margin="dense" required multiline minRows={4} label={t.message} value={content} onChange={(e) => setContent(e.target.value)} error={Boolean(fieldErrors.content)} helperText={fieldErrors.content} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" loading={sending} disabled={lines.length === 0} onClick={() => void submit()} data-testid="email-start-send">
          {t.send}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
