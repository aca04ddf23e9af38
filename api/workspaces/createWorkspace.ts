import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { findOperator } from '../auth/queries';
import { issueSession } from '../auth/issueSession';
import type { LoginView } from '../auth/presenters';
import { NO_TRIAL_NOTICE, provisionWorkspace, startLifecycleAfterCommit } from './provisionWorkspace';
import type { WorkspaceCreateReq } from './schema';
import { assertWorkspaceCreationAllowed } from './creationLimit';

/** The session in the new workspace; `notice` says why it starts without a trial when it does. */
export type CreatedWorkspaceView = LoginView & { notice?: string };

/**
 * "Novo workspace": any member may open one; they own it and get a session in it. The trial goes to the
 * first workspace of the owner's address only (provisionWorkspace). At most 10 per account in any 24
 * hours (creationLimit.ts).
 */
export async function createWorkspace(deps: AppDeps, actor: Actor, input: WorkspaceCreateReq): Promise<CreatedWorkspaceView> {
  const { provisioned, session } = await deps.knex.transaction(async (trx) => {
    const owner = await findOperator(trx, actor.operatorId);
    if (!owner) throw errors.authentication();
    await assertWorkspaceCreationAllowed(trx, owner.id);
    const provisioned = await provisionWorkspace(trx, deps.config, { name: input.name, ownerId: owner.id, ownerEmail: owner.email });
    return { provisioned, session: await issueSession(deps, trx, actor.operatorId, provisioned.workspaceId) };
  });
  startLifecycleAfterCommit(deps, provisioned);
  return provisioned.trial ? session : { ...session, notice: NO_TRIAL_NOTICE };
}
