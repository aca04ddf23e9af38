import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useMatch, useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import { useRealtimeEvent, useRealtimeLastConnect, useRealtimeStatus } from '../realtime/RealtimeProvider';
import { useSession } from '../providers/session';
import { shellTexts as texts } from '../i18n/shellTexts';
import { inboxKeys } from './queryKeys';
import { applyConversation, applyMessage, applyMessagePatch, knownConversation, removeConversation } from './applyChanges';
import { messageRows, type MessageData } from './cache';
import { playNotificationSound } from './sound';
import { NOTHING_SELECTED } from './constants';
import type { Conversation, Message } from './types';

const LIVE_EVENTS = new Set(['chat.newCall', 'chat.callStatus', 'chat.newMessage', 'chat.messageStatus', 'chat.conversationRemoved']);

/**
 * The one realtime hook of the inbox (DESIGN.md §8): live events update the react-query caches in place.
 * Mounted by the app header, so the counters, the unread dot and the sound work on every page.
 */
export function useInboxRealtime(): void {
  const qc = useQueryClient();
  const me = useSession()?.user.id ?? 0;
  const status = useRealtimeStatus();
  const lastConnect = useRealtimeLastConnect();
  const navigate = useNavigate();
  const notify = useNotify();
  const open = useMatch('/inbox/:segment/:id');
  const openId = Number(open?.params.id) || undefined;

  useRealtimeEvent((event) => {
    if (!LIVE_EVENTS.has(event.event)) return;
    const data = (event.data ?? {}) as {
      conversation?: Conversation;
      message?: Message;
      conversationId?: number;
      messageId?: number;
      status?: number;
      isDeleted?: boolean;
      edited?: boolean;
      editedAt?: string;
      content?: Message['content'];
      text?: string;
      deliveryState?: Message['deliveryState'];
      deliveryError?: string | null;
      /** The customer's reaction to the message (WhatsApp Cloud), `emoji: null` once removed. */
      reaction?: { emoji: string | null; at: string };
      /** The satisfaction question was answered (docs/csat.md): its rating shows on the question's bubble. */
      csat?: { rating: number | null; comment: string | null };
    };
    switch (event.event) {
      case 'chat.newCall':
      case 'chat.callStatus':
      case 'chat.newMessage': {
        const next = data.conversation;
        if (next) {
          const prev = knownConversation(qc, next.id);
          // Favourites are per operator and only our own calls change them.
          const merged = prev ? { ...next, starred: prev.starred } : next;
          applyConversation(qc, merged, me, event.event === 'chat.newCall' && !prev ? null : prev);
        }
        if (data.message) applyMessage(qc, data.message);
        // A file in the conversation belongs in its contact's media grid too.
        if (data.message?.isMedia && next) void qc.invalidateQueries({ queryKey: inboxKeys.customerMedia(next.customerId), exact: true });
        const foreign = data.message ? data.message.sender === 'customer' || (data.message.sender === 'operator' && data.message.operatorId !== me) : false;
        if (event.event === 'chat.newCall' || foreign) playNotificationSound();
        break;
      }
      case 'chat.messageStatus': {
        if (!data.conversationId || !data.messageId) return;
        const current = messageRows(qc.getQueryData<MessageData>(inboxKeys.messages(data.conversationId))).find((m) => m.id === data.messageId);
        if (!current) return;
        const patch: Partial<Message> = data.isDeleted ? { isDeleted: true, content: [], text: '' } : {};
        // Statuses can arrive out of order; they only move forward.
        if (data.status && data.status > current.status) patch.status = data.status;
        // The customer edited it (Telegram): new content, marked edited.
        if (data.edited && Array.isArray(data.content)) {
          Object.assign(patch, { content: data.content, text: data.text ?? '', Call: { extraData: { ...(current.Call?.extraData ?? {}), edited: true, editedAt: data.editedAt } } });
        }
        if (data.deliveryState !== undefined) Object.assign(patch, { deliveryState: data.deliveryState, deliveryError: data.deliveryError ?? null });
        if (data.reaction !== undefined) Object.assign(patch, { Call: { extraData: { ...(current.Call?.extraData ?? {}), ...(patch.Call?.extraData ?? {}), reaction: data.reaction } } });
        const question = current.Call?.extraData?.csat;
        if (data.csat && question) Object.assign(patch, { Call: { extraData: { ...(current.Call?.extraData ?? {}), ...(patch.Call?.extraData ?? {}), csat: { ...question, rating: data.csat.rating, comment: data.csat.comment } } } });
        // The contact's history shows each call's rating: refetched when one arrives.
        const customerId = data.csat ? knownConversation(qc, data.conversationId)?.customerId : undefined;
        if (customerId) void qc.invalidateQueries({ queryKey: inboxKeys.customer(customerId), exact: true });
        if (Object.keys(patch).length > 0) applyMessagePatch(qc, data.conversationId, data.messageId, patch);
        break;
      }
      case 'chat.conversationRemoved': {
        if (!data.conversationId) return;
        removeConversation(qc, data.conversationId, me);
        qc.removeQueries({ queryKey: inboxKeys.messages(data.conversationId) });
        if (openId === data.conversationId) {
          notify(texts.inbox.removed, { type: 'info' });
          void navigate(`/inbox/${NOTHING_SELECTED}`);
        }
        break;
      }
    }
  });

  // After a reconnect that did not resume the broker's session, what changed meanwhile is refetched (a resumed
  // session replays the missed events instead). The first connection also refreshes what loaded, or was still
  // loading (restarted), before the subscription was in place.
  const wasOnline = useRef(false);
  const lastStatus = useRef(status);
  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = status;
    if (status !== 'online' || before === 'online') return;
    if (wasOnline.current) {
      if (lastConnect() !== 'resumed') void qc.invalidateQueries({ queryKey: inboxKeys.all });
    }
    else void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'inbox' && (q.queryKey[1] === 'list' || q.queryKey[1] === 'counter') && (q.state.dataUpdatedAt > 0 || q.state.fetchStatus === 'fetching') });
    wasOnline.current = true;
  }, [status, qc, lastConnect]);
}
