import { useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import AttachFile from '@mui/icons-material/AttachFile';
import Send from '@mui/icons-material/Send';
import Close from '@mui/icons-material/Close';
import { TipIconButton } from '../common/TipIconButton';
import { uploadFiles } from '../inbox/inboxApi';
import { INBOX } from '../inbox/constants';
import { errorDescriptions } from '../providers/httpClient';
import { TEAM_MESSAGE_MAX_CHARS } from '../../../api/teamChat/schema';
import { teamTexts as t } from './texts';

interface Picked {
  key: string;
  fileName: string;
}

/**
 * The room's composer: text (Enter sends, Shift+Enter breaks the line) and one file uploaded at once through
 * /assets/upload (16 MB). What was typed stays when a send fails.
 */
export function Composer({ onSend }: { onSend: (body: string, file: Picked | null) => Promise<boolean> }) {
  const notify = useNotify();
  const [text, setText] = useState('');
  const [file, setFile] = useState<Picked | null>(null);
  const [uploading, setUploading] = useState(false);
  const [sending, setSending] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const pick = async (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > INBOX.fileLimitBytes) {
      notify(t.tooBig, { type: 'error' });
      return;
    }
    setUploading(true);
    try {
      const [entry] = await uploadFiles([picked]);
      if (entry) setFile({ key: entry.key, fileName: entry.fileName });
    } catch (err) {
      for (const d of errorDescriptions(err)) notify(d, { type: 'error' });
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const send = async () => {
    if (sending || uploading || (!text.trim() && !file)) return;
    setSending(true);
    const ok = await onSend(text, file);
    setSending(false);
    if (ok) {
      setText('');
      setFile(null);
      inputRef.current?.focus();
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      sx={{ borderTop: 1, borderColor: 'divider', p: 1, bgcolor: 'background.paper' }}
    >
      {file ? <Chip size="small" label={file.fileName} onDelete={() => setFile(null)} deleteIcon={<Close aria-label={t.removeFile} />} sx={{ mb: 1, maxWidth: '100%' }} /> : null}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <input ref={fileRef} type="file" hidden onChange={(e) => void pick(e.target.files?.[0])} data-testid="team-file-input" />
        <TipIconButton title={t.attach} onClick={() => fileRef.current?.click()} disabled={uploading}>
          {uploading ? <CircularProgress size={20} aria-label={t.uploading} /> : <AttachFile />}
        </TipIconButton>
        <TextField
          inputRef={inputRef}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          placeholder={t.composerPlaceholder}
          multiline
          maxRows={6}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { 'aria-label': t.composer, maxLength: TEAM_MESSAGE_MAX_CHARS, title: t.composerHelp } }}
        />
        <TipIconButton title={t.send} type="submit" color="primary" disabled={sending || uploading || (!text.trim() && !file)}>
          <Send />
        </TipIconButton>
      </Box>
    </Box>
  );
}
