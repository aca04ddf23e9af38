import type { QueryClient } from '@tanstack/react-query';
import { inboxKeys } from './queryKeys';
import {
  applyToCounter,
  belongsTo,
  dropMessage,
  findInList,
  patchMessage,
  placeInList,
  removeFromList,
  replaceInList,
  unreadChanged,
  upsertMessage,
  type ListData,
  type MessageData,
} from './cache';
import type { Conversation, Counter, Message } from './types';
import type { Customer } from './contact/types';

/** The copy of a conversation the caches hold now (detail first, then any list page), if any. */
export function knownConversation(qc: QueryClient, id: number): Conversation | undefined {
  const detail = qc.getQueryData<Conversation>(inboxKeys.conversation(id));
  if (detail) return detail;
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.lists() })) {
    const hit = findInList(data, id);
    if (hit) return hit;
  }
  return undefined;
}

let counterTimer: ReturnType<typeof setTimeout> | undefined;
/** Custom segments' counts (and changes we cannot diff) come from the server, once per burst of events. */
export function refetchCounterSoon(qc: QueryClient): void {
  clearTimeout(counterTimer);
  counterTimer = setTimeout(() => void qc.invalidateQueries({ queryKey: inboxKeys.counter() }), 500);
}

/**
 * A new state of one conversation, from a live event or from the answer of our own call: every list page,
 * the open detail and the counters follow. `prev` null means it was not visible before (a new conversation).
 */
export function applyConversation(qc: QueryClient, next: Conversation, me: number, prev: Conversation | null | undefined = knownConversation(qc, next.id)): void {
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.lists() })) {
    if (!data) continue;
    const segment = String(key[2]);
    const query = String(key[3] ?? '');
    const belongs = query ? undefined : belongsTo(segment, next, me);
    if (belongs === true) qc.setQueryData<ListData>(key, placeInList(data, next));
    else if (belongs === false) qc.setQueryData<ListData>(key, removeFromList(data, next.id));
    else if (findInList(data, next.id)) qc.setQueryData<ListData>(key, replaceInList(data, next));
    // A custom segment or a search we cannot evaluate here: the server says whether it is in (visible lists only).
    else void qc.invalidateQueries({ queryKey: key, exact: true, refetchType: 'active' });
  }
  if (qc.getQueryData(inboxKeys.conversation(next.id))) qc.setQueryData(inboxKeys.conversation(next.id), next);
  followContact(qc, next);
  const counter = qc.getQueryData<Counter>(inboxKeys.counter());
  if (!counter) return;
  if (prev === undefined) {
    refetchCounterSoon(qc);
    return;
  }
  qc.setQueryData<Counter>(inboxKeys.counter(), applyToCounter(counter, prev, next, me));
  if (Object.keys(counter.segments ?? {}).length > 0 && unreadChanged(prev, next)) refetchCounterSoon(qc);
}

/**
 * The contact panel shows each channel's current call (protocol, open or finished) and the call history:
 * when the conversation's call moved on (resolved, reopened, a new call) the loaded contact is refetched,
 * since only the server has the history's dates. Messages within the same call change nothing there.
 */
function followContact(qc: QueryClient, next: Conversation): void {
  const key = inboxKeys.customer(next.customerId);
  const customer = qc.getQueryData<Customer>(key);
  if (!customer) return;
  const call = customer.channels.find((c) => c.customerPlatformId === next.id)?.Call;
  // An event may carry a call before its protocol is numbered (at commit): a known call id is enough then.
  const sameProtocol = next.protocol === null || String(call?.protocol) === String(next.protocol);
  const same = call ? call.id === next.callId && call.isFinished === next.isFinished && sameProtocol : false;
  if (!same) void qc.invalidateQueries({ queryKey: key, exact: true });
}

/** The conversation left the operator's view (docs/api/inbox.md `chat.conversationRemoved`). */
export function removeConversation(qc: QueryClient, id: number, me: number): void {
  const prev = knownConversation(qc, id);
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.lists() })) {
    if (data) qc.setQueryData<ListData>(key, removeFromList(data, id));
  }
  const counter = qc.getQueryData<Counter>(inboxKeys.counter());
  if (counter && prev) qc.setQueryData<Counter>(inboxKeys.counter(), applyToCounter(counter, prev, null, me));
  if (counter && (!prev || Object.keys(counter.segments ?? {}).length > 0)) refetchCounterSoon(qc);
}

export function applyMessage(qc: QueryClient, message: Message): void {
  qc.setQueryData<MessageData>(inboxKeys.messages(message.customerPlatformId), (data) => (data ? upsertMessage(data, message) : data));
}

export function applyMessagePatch(qc: QueryClient, conversationId: number, messageId: number, patch: Partial<Message>): void {
  qc.setQueryData<MessageData>(inboxKeys.messages(conversationId), (data) => (data ? patchMessage(data, messageId, patch) : data));
}

export function removeMessage(qc: QueryClient, conversationId: number, messageId: number): void {
  qc.setQueryData<MessageData>(inboxKeys.messages(conversationId), (data) => (data ? dropMessage(data, messageId) : data));
}
