import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { issueSession } from '../auth/issueSession';
import type { LoginView } from '../auth/presenters';
import { provisionWorkspace, startLifecycleAfterCommit } from './provisionWorkspace';
import type { WorkspaceCreateReq } from './schema';

/** "Novo workspace": any member may open one; they own it and get a session in it. */
export async function createWorkspace(deps: AppDeps, actor: Actor, input: WorkspaceCreateReq): Promise<LoginView> {
  const { provisioned, session } = await deps.knex.transaction(async (trx) => {
    const provisioned = await provisionWorkspace(trx, deps.config, { name: input.name, ownerId: actor.operatorId });
    return { provisioned, session: await issueSession(deps, trx, actor.operatorId, provisioned.workspaceId) };
  });
  startLifecycleAfterCommit(deps, provisioned);
  return session;
}
