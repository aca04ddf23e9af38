import type { AppDeps } from '../deps';
import { authorize, type Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { topics } from '../realtime/publisher';
import { findWorkspace, type WorkspaceRow } from '../auth/queries';
import { forgetWorkspaceRow } from '../auth/membershipCache';
import type { WorkspaceUpdateReq } from './schema';

/** Name, avatar, time zone and inbox preferences of the caller's workspace; everyone in it hears about the change. */
export async function updateWorkspace(deps: AppDeps, actor: Actor, input: WorkspaceUpdateReq): Promise<WorkspaceRow> {
  authorize(actor, 'workspace.update');
  // A client may echo the workspace id; another workspace's id is not found, like any foreign id.
  if (input.workspaceId !== undefined && input.workspaceId !== actor.workspaceId) throw errors.notFound();
  const ws = await deps.knex.transaction(async (trx) => {
    const changes: Record<string, unknown> = { name: input.name, updatedAt: trx.fn.now() };
    if (input.avatar !== undefined) changes.avatar = input.avatar;
    if (input.timeZone !== undefined) changes.timeZone = input.timeZone;
    if (input.assignOnManualReply !== undefined) changes.assignOnManualReply = input.assignOnManualReply;
    if (input.awayAfterMinutes !== undefined) changes.awayAfterMinutes = input.awayAfterMinutes;
    await trx('workspaces').where({ id: actor.workspaceId }).update(changes);
    const row = await findWorkspace(trx, actor.workspaceId);
    if (!row) throw errors.notFound();
    return row;
  });
  // This process answers GET /workspace from its token cache: the change shows on the next request here.
  forgetWorkspaceRow(deps.knex, ws.id);
  await deps.publisher
    .publish(topics.workspace(ws.id), 'WorkspaceActivation', { message: 'Workspace atualizado', workspaceId: ws.id, workspace: ws.name })
    .catch((err: unknown) => deps.logger.warn({ err, workspaceId: ws.id }, 'WorkspaceActivation not published'));
  return ws;
}
