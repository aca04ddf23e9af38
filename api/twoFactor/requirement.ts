import type { AppDeps } from '../deps';
import { authorize, authorizePerson, type Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { hasTwoFactor, workspaceRequiresTwoFactor } from '../auth/twoFactorGate';
import { membersTwoFactor, setWorkspaceRequirement } from './queries';
import { OWNER_NEEDS_TWO_FACTOR } from './messages';
import type { TwoFactorRequirementView } from './presenters';
import type { TwoFactorRequirementReq } from './schema';

/** GET /workspace/two-factor: whether the workspace requires it, and which members have it (level 6+). */
export async function showRequirement(deps: AppDeps, actor: Actor): Promise<TwoFactorRequirementView> {
  authorize(actor, 'members.manage');
  return {
    required: await workspaceRequiresTwoFactor(deps.knex, actor.workspaceId),
    members: await membersTwoFactor(deps.knex, actor.workspaceId),
  };
}

/**
 * PUT /workspace/two-factor: the owner requires (or stops requiring) two-factor login of every member.
 * Members without it are sent to the setup at their next login, and their open sessions end at the next
 * token renewal (docs/two-factor.md). The owner must have it on first, or they would lock themselves out.
 */
export async function setRequirement(deps: AppDeps, actor: Actor, input: TwoFactorRequirementReq): Promise<TwoFactorRequirementView> {
  authorizePerson(actor);
  authorize(actor, 'twoFactor.require');
  if (input.required && !(await hasTwoFactor(deps.knex, actor.operatorId))) throw errors.conflict(OWNER_NEEDS_TWO_FACTOR, 'required');
  await setWorkspaceRequirement(deps.knex, actor.workspaceId, input.required);
  return showRequirement(deps, actor);
}
