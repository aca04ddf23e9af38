import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { messageQuery, presentMessage, signedFileUrl, type MessageRow, type MessageView } from '../conversations/presenters';
import { COUNT_CAP, MESSAGES_AROUND_NEWER, type MessagesQuery } from './schema';

export interface MessagePage {
  data: MessageView[];
  matchCount: number;
}

type CountedRow = MessageRow & { matchCount?: number | string };

/**
 * GET /inbox/messages: a visible conversation's messages, newest first (messages_page_idx, or
 * messages_call_idx with callId). Operators see private notes too. Three keyset cursors, each a message of
 * this conversation: `before` pages back, `after` pages forward (the `limit` messages right after it, still
 * returned newest first), `around` opens on a message (it, up to MESSAGES_AROUND_NEWER newer ones and older
 * ones up to `limit`). A cursor that is not a message of this conversation yields an empty page, like any
 * page past the end. The page's statement also reads authors, replied-to messages and the capped count.
 */
export async function listMessages(deps: Pick<AppDeps, 'knex' | 'config'>, viewer: ConversationViewer, input: MessagesQuery): Promise<MessagePage> {
  const db = deps.knex;
  const conversation = await findVisibleConversation(db, viewer, input.id);
  const inScope = (qb: Knex.QueryBuilder, alias: string) => {
    qb.where(`${alias}.customer_platform_id`, conversation.id);
    if (input.callId !== undefined) qb.where(`${alias}.call_id`, input.callId);
    return qb;
  };
  const count = db.raw('(SELECT count(*) FROM (?) s)', [inScope(db('messages as x').select(db.raw('1')), 'x').limit(COUNT_CAP)]);

  /** `limit` messages in keyset order: 'desc' walks back from the newest, 'asc' forward from the oldest. */
  const walk = (order: 'desc' | 'asc', limit: number, counted: boolean) => {
    const q = inScope(messageQuery(db, viewer.workspaceId), 'm')
      .orderBy([{ column: 'm.created_at', order }, { column: 'm.id', order }])
      .limit(limit);
    if (counted) q.select(db.raw('? AS match_count', [count]));
    return q;
  };
  /** Rows on one side of a message of this conversation; no such message, no rows (a NULL comparison). */
  const from = (q: Knex.QueryBuilder, op: '<' | '<=' | '>', messageId: number) =>
    q.whereRaw(`(m.created_at, m.id) ${op} (SELECT b.created_at, b.id FROM messages b WHERE b.id = ? AND b.customer_platform_id = ?)`, [messageId, conversation.id]);

  let rows: CountedRow[];
  if (input.around !== undefined) {
    const newer = Math.min(MESSAGES_AROUND_NEWER, input.limit - 1);
    const older: CountedRow[] = await from(walk('desc', input.limit - newer, true), '<=', input.around);
    const after: CountedRow[] = older.length && newer > 0 ? await from(walk('asc', newer, false), '>', input.around) : [];
    rows = [...after.reverse(), ...older];
  } else if (input.after !== undefined) {
    rows = ((await from(walk('asc', input.limit, true), '>', input.after)) as CountedRow[]).reverse();
  } else if (input.before !== undefined) {
    rows = await from(walk('desc', input.limit, true), '<', input.before);
  } else {
    rows = await walk('desc', input.limit, true).offset(input.offset);
  }

  const counted = rows.find((r) => r.matchCount !== undefined);
  const matchCount = counted ? Number(counted.matchCount) : Number((await db.select(db.raw('? AS n', [count])).first()).n);
  const options = { customerAvatar: conversation.avatar, fileUrl: signedFileUrl(deps.config) };
  return { data: rows.map((r) => presentMessage(r, options)), matchCount };
}
