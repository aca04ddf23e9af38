import { useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Check from '@mui/icons-material/Check';
import { texts } from '../../../i18n/ptBR';

const t = texts.channels.widget;
/** SPEC §9: the copy confirmation stays 5 s. */
const COPIED_MS = 5000;

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Without the async clipboard (plain http on a LAN address): the old selection-based copy.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

/** The install code of a widget, with a copy button ('Copiado para clipboard'). */
export function InstallSnippet({ snippet, text = t.installText }: { snippet: string; text?: string }) {
  const notify = useNotify();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await copyText(snippet);
      notify(t.copiedToast, { type: 'success' });
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      notify(t.copyFailed, { type: 'error' });
    }
  };

  return (
    <Box component="section" aria-labelledby="widget-install-title" sx={{ mt: 3 }}>
      <Typography id="widget-install-title" component="h2" variant="subtitle1" fontWeight={700}>
        {t.install}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {text}
      </Typography>
      <Box
        component="pre"
        aria-label={t.snippetLabel}
        data-testid="widget-snippet"
        sx={{ m: 0, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
      >
        {snippet}
      </Box>
      <Button onClick={() => void copy()} startIcon={copied ? <Check /> : <ContentCopy />} sx={{ mt: 1 }}>
        {copied ? t.copied : t.copy}
      </Button>
    </Box>
  );
}
