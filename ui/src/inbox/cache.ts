import type { InfiniteData } from '@tanstack/react-query';
import type { Conversation, ConversationPage, Counter, Message, MessagePage } from './types';

/**
 * Pure updates of the inbox caches, shared by realtime events and by the answers of our own calls, so a
 * change lands once in every list page, the counters and the open conversation without a refetch.
 */

export type ListData = InfiniteData<ConversationPage, string | null>;
/** The cursor of a message page (GET /inbox/messages): none for the newest page. */
export type MessagePageParam = undefined | { before: number } | { after: number } | { around: number };
/**
 * A fetched message page remembers whether it was full and its oldest id: the cursor of the next (older) one.
 * The first page of a conversation opened on an older message (docs/search.md "Opening a hit") also knows
 * whether newer messages exist on the server (`hasNewer`, cursor `newestId`); until the newest page is
 * loaded, messages that arrive are `held` on it, not shown in the wrong place.
 */
export type StoredMessagePage = MessagePage & { hasMore: boolean; oldestId: number | null; hasNewer?: boolean; newestId?: number | null; held?: Message[] };
export type MessageData = InfiniteData<StoredMessagePage, MessagePageParam>;

/** Whether a conversation belongs to a built-in segment (docs/api/inbox.md); undefined for custom ones (the server decides). */
export function belongsTo(segment: string, c: Conversation, me: number): boolean | undefined {
  switch (segment) {
    case 'all':
      return !c.isFinished;
    case 'me':
      return !c.isFinished && c.operatorId === me;
    case 'archived':
      return c.isFinished;
    case 'starred':
      return c.starred;
    default:
      return undefined;
  }
}

const time = (c: Conversation) => Date.parse(c.lastMessageAt) || 0;
/** Inbox order: lastMessageAt DESC, id DESC. */
export const comesBefore = (a: Conversation, b: Conversation) => time(a) > time(b) || (time(a) === time(b) && a.id > b.id);

export function findInList(data: ListData | undefined, id: number): Conversation | undefined {
  for (const page of data?.pages ?? []) {
    const hit = page.data.find((c) => c.id === id);
    if (hit) return hit;
  }
  return undefined;
}

export function removeFromList(data: ListData, id: number): ListData {
  if (!findInList(data, id)) return data;
  return { ...data, pages: data.pages.map((p) => (p.data.some((c) => c.id === id) ? { ...p, data: p.data.filter((c) => c.id !== id), matchCount: Math.max(0, p.matchCount - 1) } : p)) };
}

/**
 * Puts the conversation at its place in the loaded pages (removing the old copy). Past the last loaded row
 * while more pages exist it is left out: the next page brings it.
 */
export function placeInList(data: ListData, c: Conversation): ListData {
  const existed = Boolean(findInList(data, c.id));
  const pages = data.pages.map((p) => ({ ...p, data: p.data.filter((x) => x.id !== c.id) }));
  let placed = false;
  for (const page of pages) {
    const at = page.data.findIndex((x) => comesBefore(c, x));
    if (at >= 0) {
      page.data.splice(at, 0, c);
      placed = true;
      break;
    }
  }
  const last = pages[pages.length - 1];
  if (!placed && last && !last.nextCursor) {
    last.data.push(c);
    placed = true;
  }
  if (!existed && placed && pages[0]) pages[0] = { ...pages[0], matchCount: pages[0].matchCount + 1 };
  else if (existed && !placed && pages[0]) pages[0] = { ...pages[0], matchCount: Math.max(0, pages[0].matchCount - 1) };
  return { ...data, pages };
}

/** Replaces the copy already listed, keeping its place unless its time moved. */
export function replaceInList(data: ListData, c: Conversation): ListData {
  const old = findInList(data, c.id);
  if (!old) return data;
  if (old.lastMessageAt !== c.lastMessageAt) return placeInList(data, c);
  return { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.map((x) => (x.id === c.id ? c : x)) })) };
}

/** Flattened rows without the duplicates a page boundary can produce after live moves. */
function uniqueRows<Row extends { id: number }>(pages: { data: Row[] }[] | undefined): Row[] {
  const seen = new Set<number>();
  const rows: Row[] = [];
  for (const page of pages ?? []) {
    for (const row of page.data) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

export const listRows = (data: ListData | undefined): Conversation[] => uniqueRows(data?.pages);

type CounterPart = Pick<Counter, 'all' | 'me' | 'starred' | 'pending'>;

/** What one conversation adds to the counters: unread open ones per segment, and open unassigned ones. */
export function contribution(c: Conversation | null | undefined, me: number): CounterPart {
  if (!c) return { all: 0, me: 0, starred: 0, pending: 0 };
  const unread = c.hasNewMessages && !c.isFinished;
  return {
    all: unread ? 1 : 0,
    me: unread && c.operatorId === me ? 1 : 0,
    starred: unread && c.starred ? 1 : 0,
    pending: !c.isFinished && c.operatorId === null ? 1 : 0,
  };
}

/** Moves the counters from the conversation's previous state to its new one (null: it left our view). */
export function applyToCounter(counter: Counter, prev: Conversation | null | undefined, next: Conversation | null | undefined, me: number): Counter {
  const a = contribution(prev, me);
  const b = contribution(next, me);
  const add = (k: keyof CounterPart) => Math.max(0, counter[k] + b[k] - a[k]);
  return { ...counter, all: add('all'), me: add('me'), starred: add('starred'), pending: add('pending') };
}

/** Whether a change can move a custom segment's count (which only the server computes). */
export function unreadChanged(prev: Conversation | null | undefined, next: Conversation | null | undefined): boolean {
  const u = (c: Conversation | null | undefined) => Boolean(c && c.hasNewMessages && !c.isFinished);
  return u(prev) !== u(next) || (u(next) && (prev?.operatorId !== next?.operatorId || prev?.groupId !== next?.groupId || prev?.starred !== next?.starred));
}

export const messageRows = (data: MessageData | undefined): Message[] => uniqueRows(data?.pages);

const newerMessage = (a: Message, b: Message) => {
  const ta = Date.parse(a.createdAt) || 0;
  const tb = Date.parse(b.createdAt) || 0;
  return ta > tb || (ta === tb && a.id > b.id);
};

/** How far a delivery got (docs/outbound.md): pending, then sent, then failed (a WhatsApp line may fail a sent one). */
const deliveryRank = (state: Message['deliveryState']) => (state === 'failed' ? 2 : state === 'sent' ? 1 : state === 'pending' ? 0 : -1);

/**
 * A newer copy of a message we hold. The copy may have been read before what the cache already knows (the
 * answer of our own send, read while the delivery was pending, can come after the live chat.messageStatus that
 * failed it): its status and its delivery never move back. A retry goes back to pending through the live
 * chat.messageStatus (a patch), not through here.
 */
function mergeMessage(old: Message, m: Message): Message {
  const next = m.status < old.status ? { ...m, status: old.status } : m;
  if (deliveryRank(old.deliveryState) <= deliveryRank(m.deliveryState)) return next;
  return { ...next, deliveryState: old.deliveryState, deliveryError: old.deliveryError ?? null };
}

/** Whether the stored message `m` is the real copy of our optimistic `x` (negative id, same text and type). */
const settles = (x: Message, m: Message) => Boolean(x.pending) && x.id < 0 && m.id > 0 && x.text.trim() === (m.text ?? '').trim() && x.type === m.type;

/** The newest messages are not loaded: the view was opened on an older message (docs/search.md). */
export const isAnchored = (data: MessageData | undefined): boolean => Boolean(data?.pages[0]?.hasNewer);

/** Messages held while anchored, oldest first. */
export function heldMessages(data: MessageData | undefined): Message[] {
  const byId = new Map<number, Message>();
  for (const page of data?.pages ?? []) for (const m of page.held ?? []) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => (newerMessage(a, b) ? 1 : newerMessage(b, a) ? -1 : 0));
}

function hold(data: MessageData, m: Message): MessageData {
  const [first, ...rest] = data.pages;
  const held = first!.held ?? [];
  const next = held.some((x) => x.id === m.id) ? held.map((x) => (x.id === m.id ? mergeMessage(x, m) : x)) : [...held.filter((x) => !settles(x, m)), m];
  return { ...data, pages: [{ ...first!, held: next }, ...rest] };
}

/**
 * Adds or replaces a message in the newest-first pages. Our own optimistic copy (negative id, same text)
 * gives way to the real one whichever of the answer or the live event comes first. While the newest page is
 * not loaded (isAnchored) a new message is held instead: it belongs after messages not loaded yet.
 */
export function upsertMessage(data: MessageData, m: Message): MessageData {
  const exists = data.pages.some((p) => p.data.some((x) => x.id === m.id));
  if (exists) return { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.map((x) => (x.id === m.id ? mergeMessage(x, m) : x)) })) };
  if (isAnchored(data)) return hold(data, m);
  const pages = data.pages.map((p) => ({ ...p, data: p.data.filter((x) => !settles(x, m)) }));
  const first = pages[0];
  if (!first) return { ...data, pages: [{ data: [m], matchCount: 1, hasMore: false, oldestId: m.id }] };
  const at = first.data.findIndex((x) => newerMessage(m, x) || x.pending);
  const list = [...first.data];
  if (at < 0) list.push(m);
  else list.splice(m.pending ? 0 : at, 0, m);
  pages[0] = { ...first, data: list, matchCount: first.matchCount + 1 };
  return { ...data, pages };
}

export function patchMessage(data: MessageData, id: number, patch: Partial<Message>): MessageData {
  const touch = (list: Message[]) => list.map((x) => (x.id === id ? { ...x, ...patch } : x));
  return {
    ...data,
    pages: data.pages.map((p) => {
      const inData = p.data.some((x) => x.id === id);
      const inHeld = Boolean(p.held?.some((x) => x.id === id));
      return inData || inHeld ? { ...p, data: inData ? touch(p.data) : p.data, ...(inHeld ? { held: touch(p.held!) } : {}) } : p;
    }),
  };
}

export function dropMessage(data: MessageData, id: number): MessageData {
  return { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.filter((x) => x.id !== id), ...(p.held ? { held: p.held.filter((x) => x.id !== id) } : {}) })) };
}

/**
 * Once the newest page is loaded, the held messages take their places: those the pages already have (fetched
 * after they arrived) are skipped, the others (and our own sends still on their way) are added.
 */
export function releaseHeld(data: MessageData): MessageData {
  const held = heldMessages(data);
  if (isAnchored(data) || !data.pages.some((p) => p.held)) return data;
  let next: MessageData = { ...data, pages: data.pages.map(({ held: _held, ...p }) => p) };
  for (const m of held) {
    const rows = messageRows(next);
    if (rows.some((x) => x.id === m.id || settles(m, x))) continue;
    next = upsertMessage(next, m);
  }
  return next;
}

/** What stays of loaded data when a new window replaces it: its held messages and our sends still on their way. */
function carried(old: MessageData | undefined): Message[] {
  const pending = messageRows(old).filter((m) => m.pending);
  return [...heldMessages(old).filter((m) => !pending.some((p) => p.id === m.id)), ...pending];
}

/** The data of a window opened `around` a message (isAnchored when newer messages exist). */
export function anchoredData(page: StoredMessagePage, param: MessagePageParam, old: MessageData | undefined): MessageData {
  const held = carried(old);
  return releaseHeld({ pages: [{ ...page, ...(held.length ? { held } : {}) }], pageParams: [param] });
}

/** The data of the newest page, replacing an anchored window: what was held takes its place. */
export function newestData(page: StoredMessagePage, old: MessageData | undefined): MessageData {
  const held = carried(old);
  return releaseHeld({ pages: [{ ...page, hasNewer: false, ...(held.length ? { held } : {}) }], pageParams: [undefined] });
}
