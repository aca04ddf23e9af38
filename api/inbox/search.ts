import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { contactMatch } from '../models/contactMatch';
import { visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { conversationQuery, type ConversationRow } from '../conversations/queries';
import { presentConversations } from '../conversations/presenters';
import { MessageType } from '../models/Message';
import type { MessageSender } from '../models/Message';
import { SEARCH_PAGE_SIZE, type SearchQuery } from './schema';
import type { SearchResult, SnippetPart } from './searchViews';

export type { MessageHit, SearchResult, SnippetPart } from './searchViews';

/**
 * GET /inbox/search (docs/search.md): conversations whose contact (name, phone, e-mail) or protocol matches,
 * and messages whose text matches, across every segment, open and resolved, limited to what the viewer may
 * open (the visibility rule of api/policy/conversations.ts, the same arms GET /inbox walks). Message text
 * is matched with full-text search in the `balcao_pt` configuration (Portuguese stemming, accents folded:
 * migrations/20261128151000_message_search_unaccent.ts); only customer and agent messages (and the team's
 * private notes, which every viewer of the conversation sees in it) are searched, never bot or system lines.
 */

/** The expression and predicate of messages_search_idx: the planner uses the index only for these. */
export const MESSAGE_VECTOR = "to_tsvector('balcao_pt', m.text)";
const MESSAGE_PREDICATE = "NOT m.is_deleted AND m.sender IN ('customer', 'operator')";
const SEARCHED_TYPES = [MessageType.COMMON, MessageType.PRIVATE, MessageType.EMAIL];

const WORD = /[\p{L}\p{N}]+/gu;
/** Characters of context kept before the first match, and the snippet's length. */
const BEFORE = 60;
const LENGTH = 220;

/**
 * The snippet of a message: the text around its first matched word, whitespace collapsed, cut with '…',
 * in parts whose `match` words are the ones whose lexeme (balcao_pt: unaccented, stemmed) is one of the
 * query's. Built here from the stored text, so no character of the message is lost or reinterpreted.
 */
export function snippetParts(raw: string, matches: Set<string>): SnippetPart[] {
  const text = raw.replace(/\s+/g, ' ').trim();
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, hit: matches.has(m[0].toLowerCase()) }));
  const first = words.find((w) => w.hit);
  let from = 0;
  if (first && first.start > BEFORE) {
    const boundary = words.find((w) => w.start >= first.start - BEFORE);
    from = boundary ? boundary.start : first.start;
  }
  let to = Math.min(text.length, from + LENGTH);
  if (to < text.length) {
    const cut = words.filter((w) => w.end <= to).pop();
    if (cut && cut.end > from) to = cut.end;
  }
  const parts: SnippetPart[] = [];
  const push = (t: string, match: boolean) => {
    if (!t) return;
    const last = parts[parts.length - 1];
    if (last && last.match === match) last.text += t;
    else parts.push({ text: t, match });
  };
  if (from > 0) push('…', false);
  let at = from;
  for (const w of words) {
    if (!w.hit || w.end <= from || w.start >= to) continue;
    push(text.slice(at, w.start), false);
    push(text.slice(w.start, w.end), true);
    at = w.end;
  }
  push(text.slice(at, to), false);
  if (to < text.length) push('…', false);
  return parts;
}

/** Which of these words (lower-case) have a lexeme of the query: the words a snippet marks. */
export async function matchingWords(db: Knex, texts: string[], q: string): Promise<Set<string>> {
  const words = [...new Set(texts.flatMap((t) => [...t.matchAll(WORD)].map((m) => m[0].toLowerCase())))].slice(0, 20_000);
  if (!words.length) return new Set();
  const r: { rows: { w: string }[] } = await db.raw(
    "SELECT w FROM unnest(?::text[]) w WHERE tsvector_to_array(to_tsvector('balcao_pt', w)) && tsvector_to_array(to_tsvector('balcao_pt', ?))",
    [words, q],
  );
  return new Set(r.rows.map((row) => row.w));
}

function visible(viewer: ConversationViewer): { sql: string; bindings: Knex.Value[] } {
  const c = visibilityCondition(viewer, 'cp');
  return { sql: `(${c.sql})`, bindings: c.bindings };
}

/** Ids of the page of conversations whose contact or protocol matches, newest activity first. */
export function conversationHitsQuery(db: Knex, viewer: ConversationViewer, input: SearchQuery): Knex.Raw {
  const vis = visible(viewer);
  const contact = contactMatch('c', input.q);
  const arms = [
    `SELECT cp.id, cp.last_message_at FROM customers c JOIN customer_platforms cp ON cp.customer_id = c.id
     WHERE c.workspace_id = ? AND cp.workspace_id = ? AND ${contact.sql} AND ${vis.sql}`,
  ];
  const bindings: Knex.Value[] = [viewer.workspaceId, viewer.workspaceId, ...contact.bindings, ...vis.bindings];
  const protocol = /^#?\d{1,15}$/.test(input.q) ? Number(input.q.replace('#', '')) : null;
  if (protocol !== null && Number.isSafeInteger(protocol)) {
    arms.push(`SELECT cp.id, cp.last_message_at FROM calls k JOIN customer_platforms cp ON cp.id = k.customer_platform_id
     WHERE k.workspace_id = ? AND k.protocol = ? AND cp.workspace_id = ? AND ${vis.sql}`);
    bindings.push(viewer.workspaceId, protocol, viewer.workspaceId, ...vis.bindings);
  }
  const offset = (input.page - 1) * SEARCH_PAGE_SIZE;
  return db.raw(`SELECT h.id FROM (${arms.join(' UNION ')}) h ORDER BY h.last_message_at DESC, h.id DESC LIMIT ? OFFSET ?`, [
    ...bindings,
    SEARCH_PAGE_SIZE + 1,
    offset,
  ]);
}

/** How messages match: full-text in balcao_pt (kept); bench/search.ts passes the trigram alternative it measures. */
export interface MessageMatch {
  sql: string;
  bindings: Knex.Value[];
}

export const fullTextMatch = (q: string): MessageMatch => ({ sql: `${MESSAGE_VECTOR} @@ websearch_to_tsquery('balcao_pt', ?)`, bindings: [q] });

/**
 * At most this many matching messages of the workspace are read through the index before ordering. Fewer
 * means a rare word: all of them are ordered (a bitmap scan and a small sort). More means a common word:
 * the newest messages are walked in order instead and the first page is found early. Ordering by recency
 * lets the planner walk messages_workspace_created_idx for a rare word too, reading the whole workspace
 * (a word in one message of 1M: 6.6 s); the two steps keep each case on its fast plan (docs/search.md).
 */
export const CANDIDATE_CAP = 10_000;

const HIT_COLUMNS = 'm.id, m.customer_platform_id, m.type, m.sender, m.created_at, m.text';

/** Step 1: up to CANDIDATE_CAP matching message ids of the workspace, in no order. */
export function candidatesQuery(db: Knex, viewer: ConversationViewer, match: MessageMatch): Knex.Raw {
  return db.raw(`SELECT m.id FROM messages m WHERE m.workspace_id = ? AND ${MESSAGE_PREDICATE} AND m.type = ANY(?) AND ${match.sql} LIMIT ?`, [
    viewer.workspaceId,
    SEARCHED_TYPES,
    ...match.bindings,
    CANDIDATE_CAP,
  ]);
}

/** Step 2, rare word: the visible page among the candidates, newest first. */
export function candidatePageQuery(db: Knex, viewer: ConversationViewer, input: SearchQuery, ids: number[]): Knex.Raw {
  const vis = visible(viewer);
  return db.raw(
    `SELECT ${HIT_COLUMNS}
     FROM messages m JOIN customer_platforms cp ON cp.id = m.customer_platform_id
     WHERE m.id = ANY(?::bigint[]) AND m.workspace_id = ? AND cp.workspace_id = ? AND ${vis.sql}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT ? OFFSET ?`,
    [ids, viewer.workspaceId, viewer.workspaceId, ...vis.bindings, SEARCH_PAGE_SIZE + 1, (input.page - 1) * SEARCH_PAGE_SIZE],
  );
}

/**
 * Step 2, common word: the newest visible matching messages, walked in order. With `withinDays`, only the
 * messages of the last that many days: PostgreSQL then intersects the full-text index with the time range
 * of messages_workspace_created_idx (a BitmapAnd) and orders the few matches left, instead of computing the
 * text vector of every message it walks. A word in a few thousandths of 10M messages walked ~80,000 rows
 * unbounded (bench/README.md "Search at 1M"); the last day holds its first page.
 */
export function walkPageQuery(db: Knex, viewer: ConversationViewer, input: SearchQuery, match: MessageMatch, withinDays?: number): Knex.Raw {
  const vis = visible(viewer);
  const recent = withinDays === undefined ? { sql: '', bindings: [] } : { sql: 'AND m.created_at >= now() - make_interval(days => ?)', bindings: [withinDays] };
  return db.raw(
    `SELECT ${HIT_COLUMNS}
     FROM messages m JOIN customer_platforms cp ON cp.id = m.customer_platform_id
     WHERE m.workspace_id = ? AND ${MESSAGE_PREDICATE} AND m.type = ANY(?)
       AND ${match.sql} ${recent.sql} AND cp.workspace_id = ? AND ${vis.sql}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT ? OFFSET ?`,
    [viewer.workspaceId, SEARCHED_TYPES, ...match.bindings, ...recent.bindings, viewer.workspaceId, ...vis.bindings, SEARCH_PAGE_SIZE + 1, (input.page - 1) * SEARCH_PAGE_SIZE],
  );
}

/**
 * The windows a page is looked for in, newest first, in days. A window answers when it holds the whole page
 * and one more (every match newer than its start is in it, so nothing older can come first). The first is
 * tried before anything else: it answers common and medium words at once (the candidate step reads up to
 * CANDIDATE_CAP rows from the heap, ~30 ms at 10M messages) and costs a rare word a few index entries.
 */
export const RECENT_WINDOWS_DAYS = [1, 7, 30];

type PageRows = { rows: Record<string, unknown>[] };

async function windowPage(db: Knex, viewer: ConversationViewer, input: SearchQuery, match: MessageMatch, days: number): Promise<PageRows | undefined> {
  const page: PageRows = await walkPageQuery(db, viewer, input, match, days);
  return page.rows.length > SEARCH_PAGE_SIZE ? page : undefined;
}

/**
 * The page of matching messages (one more than a page, to tell whether more follow), newest first: the last
 * day if it holds the page; else, for a rare word (fewer than CANDIDATE_CAP matches), all its matches ordered;
 * else the wider windows, then the walk over every message.
 */
export async function messageHits(db: Knex, viewer: ConversationViewer, input: SearchQuery, match: MessageMatch = fullTextMatch(input.q)): Promise<HitRow[]> {
  const [first, ...wider] = RECENT_WINDOWS_DAYS;
  const beyondFirstWindow = async (): Promise<PageRows> => {
    const candidates: { rows: { id: string | number }[] } = await candidatesQuery(db, viewer, match);
    if (candidates.rows.length < CANDIDATE_CAP) {
      return candidates.rows.length ? candidatePageQuery(db, viewer, input, candidates.rows.map((r) => Number(r.id))) : { rows: [] };
    }
    for (const days of wider) {
      const page = await windowPage(db, viewer, input, match, days);
      if (page) return page;
    }
    return walkPageQuery(db, viewer, input, match);
  };
  const page = (await windowPage(db, viewer, input, match, first!)) ?? (await beyondFirstWindow());
  return page.rows.map(
    (row): HitRow => ({
      id: Number(row.id),
      customerPlatformId: Number(row.customer_platform_id ?? row.customerPlatformId),
      type: Number(row.type),
      sender: row.sender as MessageSender,
      createdAt: (row.created_at ?? row.createdAt) as Date,
      text: String(row.text ?? ''),
    }),
  );
}

interface HitRow {
  id: number;
  customerPlatformId: number;
  type: number;
  sender: MessageSender;
  createdAt: Date;
  text: string;
}

export async function searchInbox(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, input: SearchQuery): Promise<SearchResult> {
  const db = deps.knex;
  const [conversationIds, hits] = await Promise.all([
    conversationHitsQuery(db, viewer, input).then((r: { rows: { id: number }[] }) => r.rows.map((row) => Number(row.id))),
    messageHits(db, viewer, input),
  ]);
  const conversationsMore = conversationIds.length > SEARCH_PAGE_SIZE;
  const messagesMore = hits.length > SEARCH_PAGE_SIZE;
  const pageConversations = conversationIds.slice(0, SEARCH_PAGE_SIZE);
  const pageHits = hits.slice(0, SEARCH_PAGE_SIZE);

  const ids = [...new Set([...pageConversations, ...pageHits.map((h) => h.customerPlatformId)])];
  const rows: ConversationRow[] = ids.length ? await conversationQuery(db, viewer.workspaceId, viewer.operatorId).whereIn('cp.id', ids) : [];
  const [views, matches] = await Promise.all([
    presentConversations(db, rows).then((list) => new Map(list.map((v) => [v.id, v]))),
    matchingWords(db, pageHits.map((h) => h.text), input.q),
  ]);

  return {
    query: input.q,
    page: input.page,
    conversations: { data: pageConversations.flatMap((id) => views.get(id) ?? []), hasMore: conversationsMore },
    messages: {
      data: pageHits.flatMap((h) => {
        const conversation = views.get(h.customerPlatformId);
        if (!conversation) return [];
        return [{ id: h.id, conversationId: h.customerPlatformId, type: h.type, sender: h.sender, createdAt: h.createdAt, snippet: snippetParts(h.text, matches), conversation }];
      }),
      hasMore: messagesMore,
    },
  };
}
