import { Confirm, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { texts } from '../../i18n/ptBR';
import type { ChannelDeletion } from './channelPage';

const copyTexts = texts.integrations.api;

/**
 * A read-only value to paste elsewhere (webhook URL, token, address) with a 'Copiar' button → 'Copiado para clipboard'.
 * `namedButton` names the button 'Copiar {label}' (where a page has several), `monospace` is for secrets.
 */
export function ChannelCopyField({ id, label, value, monospace, namedButton }: { id: string; label: string; value: string; monospace?: boolean; namedButton?: boolean }) {
  const notify = useNotify();
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <TextField
        id={id}
        label={label}
        value={value}
        fullWidth
        margin="normal"
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: monospace ? { fontFamily: 'monospace' } : undefined } }}
      />
      <Button onClick={() => void navigator.clipboard?.writeText(value).then(() => notify(copyTexts.copied, { type: 'info' }))} aria-label={namedButton ? `${copyTexts.copy} ${label}` : undefined}>
        {copyTexts.copy}
      </Button>
    </Box>
  );
}

/** The link back to /settings/channels under a channel page. */
export function BackToChannels({ label, mt = 2 }: { label: string; mt?: number }) {
  return (
    <Button component={RouterLink} to="/settings/channels" sx={{ mt }}>
      {label}
    </Button>
  );
}

/** The submit button under an add-channel form. */
export function ChannelSubmit({ label, submitting }: { label: string; submitting: boolean }) {
  return (
    <Box sx={{ mt: 2 }}>
      <Button type="submit" variant="contained" disabled={submitting}>
        {label}
      </Button>
    </Box>
  );
}

/** The 'Excluir' confirmation of a channel page (see useChannelDelete). */
export function ChannelDeleteConfirm({ deletion, title, content, confirm }: { deletion: ChannelDeletion; title: string; content: string; confirm: string }) {
  return (
    <Confirm
      isOpen={deletion.confirming}
      loading={deletion.deleting}
      title={title}
      content={content}
      confirm={confirm}
      confirmColor="warning"
      onConfirm={() => void deletion.remove()}
      onClose={deletion.close}
    />
  );
}
