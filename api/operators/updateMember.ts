import type { AppDeps } from '../deps';
import { authorize, canManageMember, grantableLevels, type Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { findMembership, findOperator } from '../auth/queries';
import { setMemberActive, setMemberLevel } from './memberStatus';
import { presentAgent } from './presenters';
import type { MemberUpdateReq } from '../auth/schema';
import { afterMemberChange, type MemberState } from '../assignment/memberChanges';
import { forgetMembership } from '../auth/membershipCache';
import { assertWithinLimit } from '../billing/limits';

export const LEVEL_NOT_GRANTABLE = 'Você não pode conceder este nível de acesso.';

/** PUT /operator/:id: level and active flag of another member of the caller's workspace. */
export async function updateMember(deps: AppDeps, actor: Actor, operatorId: number, input: MemberUpdateReq) {
  authorize(actor, 'members.manage');
  let changed = false;
  let states: [MemberState, MemberState] | undefined;
  const view = await deps.knex.transaction(async (trx) => {
    const member = await findMembership(trx, actor.workspaceId, operatorId);
    if (!member) throw errors.notFound();
    if (!canManageMember(actor, member)) throw errors.forbidden('Você não pode alterar a si mesmo nem um agente de nível igual ou superior.');
    if (input.accessLevel !== undefined) {
      if (!grantableLevels(actor).includes(input.accessLevel)) throw errors.field('accessLevel', LEVEL_NOT_GRANTABLE);
      changed = (await setMemberLevel(trx, actor, operatorId, input.accessLevel)) || changed;
    }
    // Reactivating takes an agent of the plan back (docs/billing.md "Limits").
    if (input.isActive === true && !member.isActive) await assertWithinLimit(trx, actor.workspaceId, 'agents');
    if (input.isActive !== undefined) changed = (await setMemberActive(trx, actor, operatorId, input.isActive)) || changed;
    const op = await findOperator(trx, operatorId);
    const updated = await findMembership(trx, actor.workspaceId, operatorId);
    if (!op || !updated) throw errors.notFound();
    states = [member, updated];
    return presentAgent(op, updated);
  });
  // This process must not trust what it cached of them (others hear the notification or age it out).
  if (changed) forgetMembership(deps.knex, actor.workspaceId, operatorId);
  // Their tokens already stopped working; live sockets opened with them end now too.
  if (changed) await deps.realtimeSessions?.disconnectOperator(actor.workspaceId, operatorId).catch(() => 0);
  // Deactivated: their unanswered round-robin calls go back to the rotation; new level: what it shows or hides is re-published.
  if (changed && states) await afterMemberChange(deps, actor.workspaceId, operatorId, states[0], states[1]);
  return view;
}
