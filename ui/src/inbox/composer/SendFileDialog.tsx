import { useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { texts } from '../../i18n/ptBR';
import { INBOX } from '../constants';
import { fileSize } from '../formatTime';
import { useDialogSend } from './useDialogSend';

const t = texts.inbox.sendFile;

interface Props {
  open: boolean;
  onClose: () => void;
  onSend: (files: File[]) => Promise<boolean>;
}

/** SPEC §2 'send file' modal: pick or drop files, 16 MB each (checked here and by the server). */
export function SendFileDialog({ open, onClose, onSend }: Props) {
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const { sending, send } = useDialogSend(onSend, texts.inbox.messageSent, onClose);
  const input = useRef<HTMLInputElement>(null);
  const tooBig = files.filter((f) => f.size > INBOX.fileLimitBytes);

  const add = (list: FileList | null) => {
    // Copied now: the FileList is live and emptied when the input is reset.
    const picked = list ? Array.from(list) : [];
    if (picked.length) setFiles((current) => [...current, ...picked]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };

  return (
    <Dialog open={open} onClose={sending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="send-file-title">
      <DialogTitle id="send-file-title">{t.title}</DialogTitle>
      <DialogContent>
        <Box
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="send-file-drop"
          sx={{ border: '2px dashed', borderColor: dragging ? 'primary.main' : 'divider', borderRadius: 2, p: 3, textAlign: 'center', bgcolor: dragging ? 'action.hover' : undefined }}
        >
          <CloudUploadOutlined color="action" sx={{ fontSize: 40 }} aria-hidden />
          <Typography sx={{ mb: 1 }}>{t.drop}</Typography>
          <Button variant="outlined" onClick={() => input.current?.click()}>
            {t.choose}
          </Button>
          <input ref={input} type="file" multiple hidden aria-label={t.choose} data-testid="send-file-input" onChange={(e) => { add(e.target.files); e.target.value = ''; }} />
          <Typography sx={{ mt: 1, fontSize: 12, color: 'text.secondary' }}>{t.limit}</Typography>
        </Box>
        {files.length > 0 ? (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }} aria-label={t.selected}>
            {files.map((f, i) => {
              const big = f.size > INBOX.fileLimitBytes;
              return (
                <Box component="li" key={`${f.name}-${i}`} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
                  <Typography sx={{ flex: 1, minWidth: 0, fontSize: 14 }} noWrap>
                    {f.name}
                  </Typography>
                  <Typography sx={{ fontSize: 12, color: big ? 'error.main' : 'text.secondary' }}>{big ? t.tooBig : fileSize(f.size)}</Typography>
                  <IconButton size="small" aria-label={`${t.remove} ${f.name}`} onClick={() => setFiles((list) => list.filter((_, j) => j !== i))}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Box>
              );
            })}
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={sending}>
          {texts.common.cancel}
        </Button>
        <Button variant="contained" onClick={() => void send(files)} disabled={sending || files.length === 0 || tooBig.length > 0}>
          {t.send}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
