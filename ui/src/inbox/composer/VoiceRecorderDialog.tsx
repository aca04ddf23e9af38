import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import Stop from '@mui/icons-material/Stop';
import { useNotify } from 'react-admin';
import { texts } from '../../i18n/ptBR';
import { useDialogSend } from './useDialogSend';

const t = texts.inbox.voice;
type State = 'idle' | 'recording' | 'recorded';

interface Props {
  open: boolean;
  onClose: () => void;
  onSend: (file: File) => Promise<boolean>;
}

const elapsed = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** SPEC §4 voice: record, stop, preview, delete, send as record.webm ('Áudio enviado'). */
export function VoiceRecorderDialog({ open, onClose, onSend }: Props) {
  const notify = useNotify();
  const [state, setState] = useState<State>('idle');
  const [seconds, setSeconds] = useState(0);
  const [blob, setBlob] = useState<Blob | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const { sending, send } = useDialogSend(onSend, texts.inbox.audioSent, onClose);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);

  const release = () => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
  };

  useEffect(() => {
    if (state !== 'recording') return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(() => () => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
    release();
  }, []);

  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [blob]);

  const start = async () => {
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      notify(t.noMicrophone, { type: 'error' });
      return;
    }
    const chunks: Blob[] = [];
    const mime = MediaRecorder.isTypeSupported('audio/webm;codecs=opus') ? 'audio/webm;codecs=opus' : 'audio/webm';
    const rec = new MediaRecorder(stream.current, { mimeType: mime });
    rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
    rec.onstop = () => {
      release();
      setBlob(new Blob(chunks, { type: 'audio/webm' }));
      setState('recorded');
    };
    recorder.current = rec;
    setSeconds(0);
    rec.start();
    setState('recording');
  };

  const stop = () => recorder.current?.stop();
  const discard = () => {
    setBlob(null);
    setPreview(null);
    setState('idle');
    setSeconds(0);
  };

  return (
    <Dialog open={open} onClose={sending ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="voice-title">
      <DialogTitle id="voice-title">{t.title}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 1 }}>
          {state === 'recording' ? (
            <Typography role="timer" aria-live="off" sx={{ display: 'flex', alignItems: 'center', gap: 1, fontSize: 20, fontVariantNumeric: 'tabular-nums' }}>
              <FiberManualRecord sx={{ color: 'error.main' }} aria-hidden /> {elapsed(seconds)}
            </Typography>
          ) : null}
          {state === 'idle' ? (
            <Button variant="contained" startIcon={<FiberManualRecord />} onClick={() => void start()}>
              {t.record}
            </Button>
          ) : null}
          {state === 'recording' ? (
            <Button variant="outlined" color="error" startIcon={<Stop />} onClick={stop}>
              {t.stop}
            </Button>
          ) : null}
          {state === 'recorded' && preview ? <Box component="audio" controls src={preview} aria-label={t.preview} sx={{ width: '100%' }} /> : null}
        </Box>
      </DialogContent>
      <DialogActions>
        {state === 'recorded' ? (
          <Button color="error" onClick={discard} disabled={sending}>
            {t.discard}
          </Button>
        ) : null}
        <Button onClick={onClose} disabled={sending}>
          {texts.common.cancel}
        </Button>
        <Button variant="contained" onClick={() => blob && void send(new File([blob], 'record.webm', { type: 'audio/webm' }))} disabled={state !== 'recorded' || sending}>
          {t.send}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
