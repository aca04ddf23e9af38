import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';

/** POST/DELETE /inbox/favorites/:id: the caller's own "Favoritos"; nobody else is told. */
export async function setFavorite(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, id: number, starred: boolean): Promise<{ id: number; starred: boolean }> {
  const conversation = await findVisibleConversation(deps.knex, viewer, id);
  const key = { operatorId: viewer.operatorId, customerPlatformId: conversation.id };
  if (starred) {
    await deps.knex('customer_platform_favorites')
      .insert({ workspaceId: viewer.workspaceId, ...key })
      .onConflict(['operator_id', 'customer_platform_id'])
      .ignore();
  } else {
    await deps.knex('customer_platform_favorites').where(key).delete();
  }
  return { id: conversation.id, starred };
}
