import type { ComponentType, FormEventHandler, ReactNode } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { texts } from '../../i18n/ptBR';
import { SettingsPage } from '../SettingsPage';
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

/**
 * A channel type's page: at /settings/channels/<type>/{id} the `details` of that channel (an id that is no
 * number is `notFound`), at /settings/channels/add/<type> the `add` page.
 */
export function ChannelPageRoute({ details: Details, add, notFound }: { details: ComponentType<{ id: number }>; add: ReactNode; notFound: string }) {
  const { id } = useParams();
  if (id !== undefined) return /^\d+$/.test(id) ? <Details id={Number(id)} /> : <Alert severity="error">{notFound}</Alert>;
  return add;
}

/** The link back to /settings/channels under a channel page. */
export function BackToChannels({ label, mt = 2 }: { label: string; mt?: number }) {
  return (
    <Button component={RouterLink} to="/settings/channels" sx={{ mt }}>
      {label}
    </Button>
  );
}

/** Under a channel page's form: 'Salvar' (submits), back to the channel list, and 'Excluir' (asks first). */
export function ChannelEditButtons({ saveLabel, saving, backLabel, deleteLabel, onDelete }: { saveLabel: string; saving: boolean; backLabel: string; deleteLabel: string; onDelete: () => void }) {
  return (
    <Box sx={{ mt: 2, display: 'flex', gap: 1 }}>
      <Button type="submit" variant="contained" disabled={saving}>
        {saveLabel}
      </Button>
      <BackToChannels label={backLabel} mt={0} />
      <Button color="warning" onClick={onDelete}>
        {deleteLabel}
      </Button>
    </Box>
  );
}

/** The submit button under an add-channel form. */
function ChannelSubmit({ label, submitting }: { label: string; submitting: boolean }) {
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

/** An add-channel page: the form (an optional help note above the fields) and its submit button. */
export function ChannelAddForm({ title, help, onSubmit, submitLabel, submitting, children }: { title: string; help?: string; onSubmit: FormEventHandler<HTMLFormElement>; submitLabel: string; submitting: boolean; children: ReactNode }) {
  return (
    <SettingsPage title={title}>
      <form onSubmit={onSubmit} noValidate>
        {help ? (
          <Alert severity="info" sx={{ mb: 1 }}>
            {help}
          </Alert>
        ) : null}
        {children}
        <ChannelSubmit label={submitLabel} submitting={submitting} />
      </form>
    </SettingsPage>
  );
}

/** What an add-channel page shows once saved: the success note, what to copy or know now, and the way back. */
export function ChannelSavedPanel({ title, savedText, backLabel, children }: { title: string; savedText: string; backLabel: string; children?: ReactNode }) {
  return (
    <SettingsPage title={title}>
      <Alert severity="success">{savedText}</Alert>
      {children}
      <BackToChannels label={backLabel} />
    </SettingsPage>
  );
}
