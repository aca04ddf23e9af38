import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { errorDescriptions } from '../providers/httpClient';
import { useSession } from '../providers/session';
import { applyConversation, knownConversation } from './applyChanges';
import { initBot, setStarred, setStatus, setTags, transferGroup, transferOperator } from './inboxApi';
import type { Conversation, Tag } from './types';

/** Every error description as an error toast (SPEC §8). */
export function useNotifyError() {
  const notify = useNotify();
  return useCallback((error: unknown) => {
    for (const text of errorDescriptions(error)) notify(text, { type: 'error' });
  }, [notify]);
}

/**
 * The conversation header's actions. Favourite, tags and transfers are optimistic and rolled back on
 * failure (SPEC §4, §8); resolve/reopen wait for the server, which opens or finishes the call.
 */
export function useConversationActions(conversation: Conversation | undefined, segment: string) {
  const qc = useQueryClient();
  const me = useSession()?.user.id ?? 0;
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState(false);

  const optimistic = useCallback(
    async (patch: Partial<Conversation>, call: () => Promise<Conversation | { id: number; starred: boolean }>) => {
      if (!conversation) return;
      const before = knownConversation(qc, conversation.id) ?? conversation;
      const guess = { ...before, ...patch };
      applyConversation(qc, guess, me, before);
      try {
        const answer = await call();
        if ('customerId' in answer) applyConversation(qc, answer, me, guess);
      } catch (error) {
        applyConversation(qc, before, me, guess);
        notifyError(error);
      }
    },
    [conversation, qc, me, notifyError],
  );

  const toggleResolved = useCallback(async () => {
    if (!conversation) return;
    setBusy(true);
    try {
      const next = await setStatus(segment, conversation.id, conversation.isFinished ? 'open' : 'resolve');
      applyConversation(qc, next, me);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }, [conversation, segment, qc, me, notifyError]);

  return {
    busy,
    toggleResolved,
    toggleStarred: () => conversation && optimistic({ starred: !conversation.starred }, () => setStarred(conversation.id, !conversation.starred)),
    setTags: (tags: Tag[]) => conversation && optimistic({ tags }, () => setTags(conversation.id, tags.map((t) => t.id), conversation.callId)),
    assign: (operatorId: number | null) => conversation && optimistic({ operatorId }, () => transferOperator(conversation.id, operatorId)),
    moveToGroup: (groupId: number | null) => conversation && optimistic({ groupId }, () => transferGroup(conversation.id, groupId)),
    /** Starts a bot, or stops the running one with null ('Atendimento manual'). */
    startBot: (botId: number | null) => conversation && optimistic({ botId }, () => initBot(conversation.id, botId)),
  };
}
