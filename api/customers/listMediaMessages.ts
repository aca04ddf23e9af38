import type { AppDeps } from '../deps';
import { messageQuery, presentMessage, signedFileUrl, type MessageRow, type MessageView } from '../conversations/presenters';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleCustomer, visiblePlatformsOf } from './queries';
import type { MediaMessagesQuery } from './schema';

/** GET /inbox/media-messages: the contact's files, newest first, from the conversations the viewer may see. */
export async function listMediaMessages(
  deps: Pick<AppDeps, 'knex' | 'config'>,
  viewer: ConversationViewer,
  input: MediaMessagesQuery,
): Promise<{ data: MessageView[]; matchCount: number }> {
  const db = deps.knex;
  const customer = await findVisibleCustomer(db, viewer, input.id);
  const conversations = () => visiblePlatformsOf(db, viewer, customer.id).select('cp.id');
  // Same predicate as messages_media_idx, per conversation of the contact.
  const media = 'm.is_media AND NOT m.is_deleted';
  const [rows, count] = await Promise.all([
    messageQuery(db, viewer.workspaceId)
      .whereIn('m.customer_platform_id', conversations())
      .whereRaw(media)
      .orderBy([{ column: 'm.created_at', order: 'desc' }, { column: 'm.id', order: 'desc' }])
      .limit(input.limit)
      .offset(input.offset) as Promise<MessageRow[]>,
    db('messages as m').where('m.workspace_id', viewer.workspaceId).whereIn('m.customer_platform_id', conversations()).whereRaw(media).count({ n: '*' }).first(),
  ]);
  const options = { customerAvatar: customer.avatar, fileUrl: signedFileUrl(deps.config) };
  return { data: rows.map((r) => presentMessage(r, options)), matchCount: Number(count?.n ?? 0) };
}
