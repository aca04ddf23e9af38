import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { messageQuery, presentMessage, signedFileUrl, type MessageRow, type MessageView } from '../conversations/presenters';
import { COUNT_CAP, type MessagesQuery } from './schema';

export interface MessagePage {
  data: MessageView[];
  matchCount: number;
}

/**
 * GET /inbox/messages: a visible conversation's messages, newest first (messages_page_idx, or
 * messages_call_idx with callId). Operators see private notes too. `before` pages by keyset from a message
 * of this conversation; one statement reads the page, authors, replied-to messages and the capped count.
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

  const q = inScope(messageQuery(db, viewer.workspaceId), 'm')
    .select(db.raw('? AS match_count', [count]))
    .orderBy([{ column: 'm.created_at', order: 'desc' }, { column: 'm.id', order: 'desc' }])
    .limit(input.limit);
  if (input.before !== undefined) {
    // An id that is not a message of this conversation yields an empty page, like any page past the end.
    q.whereRaw('(m.created_at, m.id) < (SELECT b.created_at, b.id FROM messages b WHERE b.id = ? AND b.customer_platform_id = ?)', [input.before, conversation.id]);
  } else {
    q.offset(input.offset);
  }
  const rows: (MessageRow & { matchCount: number })[] = await q;

  const matchCount = rows.length ? Number(rows[0].matchCount) : Number((await db.select(db.raw('? AS n', [count])).first()).n);
  const options = { customerAvatar: conversation.avatar, fileUrl: signedFileUrl(deps.config) };
  return { data: rows.map((r) => presentMessage(r, options)), matchCount };
}
