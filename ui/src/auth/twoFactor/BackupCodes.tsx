import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import { format } from '../../i18n/format';
import { twoFactorTexts } from './twoFactorTexts';

const t = twoFactorTexts.backup;

/**
 * The 10 backup codes, shown this once (the server keeps only their hashes): copy, download as a text file,
 * then the one button onward. Works outside react-admin (the login's setup), so it confirms a copy itself.
 */
export function BackupCodes({ codes, email, doneLabel = t.done, onDone }: { codes: string[]; email?: string; doneLabel?: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const download = () => {
    const header = format(t.fileHeader, { email: email ?? '' });
    const url = URL.createObjectURL(new Blob([`${header}\n\n${text}\n`], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = t.fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t.text}</Typography>
      <Box
        component="ul"
        data-testid="backup-codes"
        sx={{ listStyle: 'none', p: 2, m: 0, display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1, bgcolor: 'action.hover', borderRadius: 1, fontFamily: 'monospace', fontSize: '1.05rem' }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Stack direction="row" gap={1} flexWrap="wrap" sx={{ mt: 2 }}>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t.copy}
        </Button>
        <Button startIcon={<Download />} onClick={download}>
          {t.download}
        </Button>
      </Stack>
      {copied ? (
        <Typography role="status" variant="body2" color="success.main" sx={{ mt: 1 }}>
          {t.copied}
        </Typography>
      ) : null}
      <Button variant="contained" size="large" fullWidth sx={{ mt: 2 }} onClick={onDone}>
        {doneLabel}
      </Button>
    </Box>
  );
}
