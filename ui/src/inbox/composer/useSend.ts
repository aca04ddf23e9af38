import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../providers/session';
import { applyConversation, applyMessage, knownConversation, removeMessage } from '../applyChanges';
import { sendMessage, uploadFiles } from '../inboxApi';
import { useNotifyError } from '../useConversationActions';
import type { ContentItem, Conversation, Message } from '../types';

let tempIds = 0;

/**
 * Sending from the composer and the file/voice dialogs. The message shows at once with a clock (pending)
 * and is replaced by the stored one; the list row moves up without waiting for the live event.
 */
export function useSend(conversation: Conversation) {
  const qc = useQueryClient();
  const session = useSession();
  const me = session?.user.id ?? 0;
  const notifyError = useNotifyError();

  const settle = useCallback(
    (message: Message) => {
      applyMessage(qc, message);
      const current = knownConversation(qc, conversation.id) ?? conversation;
      if (Date.parse(message.createdAt) >= Date.parse(current.lastMessageAt || '0')) {
        applyConversation(qc, { ...current, lastMessage: { text: message.text, type: message.type, sender: message.sender, createdAt: message.createdAt }, lastMessageAt: message.createdAt }, me, current);
      }
    },
    [qc, conversation, me],
  );

  /** Resolves true when the server stored it; on failure the error is toasted and the copy removed. */
  const send = useCallback(
    async (content: ContentItem[], text: string, type: 0 | 2, replyTo?: Message | null): Promise<boolean> => {
      const temp: Message = {
        id: -++tempIds,
        externalId: null,
        content,
        text,
        type,
        status: 1,
        createdAt: new Date().toISOString(),
        operatorId: me,
        Operator: session ? { id: me, name: session.user.name, avatar: session.user.avatar } : null,
        sender: 'operator',
        avatar: null,
        isDeleted: false,
        isMedia: false,
        replyTo: replyTo ? { id: replyTo.id, content: replyTo.content, text: replyTo.text, externalId: replyTo.externalId } : null,
        customerPlatformId: conversation.id,
        pending: true,
      };
      applyMessage(qc, temp);
      try {
        const stored = await sendMessage({ id: conversation.id, content, type, ...(replyTo ? { replyTo: replyTo.id } : {}) });
        removeMessage(qc, conversation.id, temp.id);
        settle(stored);
        return true;
      } catch (error) {
        removeMessage(qc, conversation.id, temp.id);
        notifyError(error);
        return false;
      }
    },
    [qc, conversation.id, me, session, settle, notifyError],
  );

  const sendText = useCallback(
    (text: string, type: 0 | 2, replyTo?: Message | null) => {
      const body = text.replace(/\s+$/, '');
      return send([{ insert: `${body}\n` }], body, type, replyTo);
    },
    [send],
  );

  /** Upload (`POST /assets/upload`) then one file message with the stored entries. */
  const sendFiles = useCallback(
    async (files: File[], type: 0 | 2): Promise<boolean> => {
      let entries;
      try {
        entries = await uploadFiles(files);
      } catch (error) {
        notifyError(error);
        return false;
      }
      const content = entries.map(({ key, fileName, mime, size }) => ({ file: { key, fileName, mime, size } }));
      return send(content, entries.map((e) => e.fileName).join(', '), type);
    },
    [send, notifyError],
  );

  return { sendText, sendFiles };
}
