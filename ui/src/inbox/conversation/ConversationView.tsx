import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Confirm } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import { texts } from '../../i18n/ptBR';
import { useSession } from '../../providers/session';
import { applyConversation, applyMessage } from '../applyChanges';
import { deleteMessage, markRead } from '../inboxApi';
import { useConversation } from '../queries';
import { MessageType } from '../constants';
import { useConversationActions, useNotifyError } from '../useConversationActions';
import { Composer } from '../composer/Composer';
import { ConversationHeader } from './ConversationHeader';
import { MessageList } from './MessageList';
import type { Message } from '../types';

const t = texts.inbox;

const onVisibility = (notify: () => void) => {
  document.addEventListener('visibilitychange', notify);
  return () => document.removeEventListener('visibilitychange', notify);
};
const usePageVisible = () => useSyncExternalStore(onVisibility, () => document.visibilityState === 'visible');

interface Props {
  id: number;
  segment: string;
  panelOpen: boolean;
  onTogglePanel: () => void;
  onClose: () => void;
}

/** The open conversation: header, messages, and the composer or the resolved banner. */
export function ConversationView({ id, segment, panelOpen, onTogglePanel, onClose }: Props) {
  const qc = useQueryClient();
  const me = useSession()?.user.id ?? 0;
  const notifyError = useNotifyError();
  const { data: conversation, isError, error } = useConversation(id);
  const actions = useConversationActions(conversation, segment);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [toDelete, setToDelete] = useState<Message | null>(null);
  const readFor = useRef<number | null>(null);
  const reading = useRef<number | null>(null);

  useEffect(() => setReplyTo(null), [id]);

  // SPEC §4: opening a chat clears its new-message flag; a message arriving while it is on screen does too.
  const unread = conversation?.hasNewMessages ?? false;
  const loaded = conversation?.id === id;
  const visible = usePageVisible();
  useEffect(() => {
    if (!loaded || reading.current === id) return;
    const first = readFor.current !== id;
    // A message that arrived while the tab was in the background is read when the agent comes back.
    if (!first && (!unread || !visible)) return;
    readFor.current = id;
    reading.current = id;
    markRead(id)
      .then((next) => applyConversation(qc, next, me))
      .catch(() => undefined)
      .finally(() => {
        if (reading.current === id) reading.current = null;
      });
  }, [id, unread, loaded, visible, qc, me]);

  const onDelete = useCallback((m: Message) => setToDelete(m), []);
  const confirmDelete = async () => {
    const m = toDelete;
    setToDelete(null);
    if (!m) return;
    try {
      applyMessage(qc, await deleteMessage(m.id));
    } catch (e) {
      notifyError(e);
    }
  };

  if (isError && !conversation) {
    const notFound = (error as { status?: number }).status === 404;
    return (
      <Box component="section" sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, color: 'text.secondary' }}>
        <Typography>{notFound ? t.notFound : t.loadError}</Typography>
        <Button onClick={onClose}>{t.header.close}</Button>
      </Box>
    );
  }
  if (!conversation) {
    return (
      <Box component="section" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress size={28} aria-label={texts.common.loading} />
      </Box>
    );
  }

  return (
    <Box component="section" aria-label={conversation.name || t.conversation} data-testid="conversation" data-finished={conversation.isFinished} sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
      <ConversationHeader conversation={conversation} actions={actions} panelOpen={panelOpen} onTogglePanel={onTogglePanel} onClose={onClose} />
      <MessageList conversation={conversation} onReply={setReplyTo} onDelete={onDelete} />
      {conversation.isFinished ? (
        <Box role="status" data-testid="resolved-banner" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', bgcolor: '#ecfdf5' }}>
          <CheckCircle sx={{ color: 'success.main' }} aria-hidden />
          <Typography sx={{ flex: 1, fontSize: 14 }}>{t.resolvedBanner}</Typography>
          {/* Filled like the header's: an outlined button on the green banner read as disabled. */}
          <Button size="small" variant="contained" onClick={() => void actions.toggleResolved()} disabled={actions.busy}>
            {t.header.reopen}
          </Button>
        </Box>
      ) : (
        <Composer conversation={conversation} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
      )}
      <Confirm
        isOpen={Boolean(toDelete)}
        title={t.deleteTitle}
        content={toDelete?.type === MessageType.PRIVATE ? t.deleteNoteConfirm : t.deleteConfirm}
        confirm={t.deleteMessage}
        cancel={texts.common.cancel}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
