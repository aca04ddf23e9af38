import { useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { texts } from '../../i18n/ptBR';

const t = texts.integrations.api;

/** A read-only value (secret, token) with 'Copiar {label}' → 'Copiado para clipboard' (SPEC §8). */
export function CopyField({ id, label, value, helperText, copyable = true }: { id?: string; label: string; value: string; helperText?: string; copyable?: boolean }) {
  const notify = useNotify();
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    notify(t.copied, { type: 'success' });
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <TextField id={id} label={label} value={value} helperText={helperText} fullWidth size="small" slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } } }} />
      {copyable ? (
        <IconButton aria-label={`${t.copy} ${label}`} onClick={() => void copy()}>
          <ContentCopy />
        </IconButton>
      ) : null}
    </Box>
  );
}

/** A record's signing secret with a regenerate button that asks first (the old secret stops being used). */
export function SecretField({
  id,
  label,
  value,
  helperText,
  copyable,
  regenerateLabel,
  confirmText,
  onRegenerate,
}: {
  id?: string;
  label: string;
  value: string;
  helperText?: string;
  copyable?: boolean;
  regenerateLabel: string;
  confirmText: string;
  onRegenerate: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const regenerate = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      await onRegenerate();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ mt: 3 }}>
      <CopyField id={id} label={label} value={value} helperText={helperText} copyable={copyable} />
      <Button sx={{ mt: 1 }} disabled={busy} onClick={() => setConfirming(true)}>
        {regenerateLabel}
      </Button>
      <Confirm
        isOpen={confirming}
        title={regenerateLabel}
        content={confirmText}
        confirm={t.confirm}
        cancel={texts.common.cancel}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
