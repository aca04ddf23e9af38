import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { findOperator } from './queries';
import { loadUser } from './issueSession';
import type { ProfileUpdateReq } from './schema';
import type { UserView } from './presenters';

export const EMAIL_READ_ONLY = 'O e-mail não pode ser alterado.';

/** Name, phone and avatar of the caller; the e-mail is read-only (SPEC §5). */
export async function updateProfile(deps: AppDeps, actor: Actor, input: ProfileUpdateReq): Promise<UserView> {
  const op = await findOperator(deps.knex, actor.operatorId);
  if (!op) throw errors.authentication();
  if (input.email !== undefined && input.email !== op.email.toLowerCase()) throw errors.field('email', EMAIL_READ_ONLY);
  const changes: Record<string, unknown> = { name: input.name, updatedAt: deps.knex.fn.now() };
  if (input.phone !== undefined) changes.phone = input.phone;
  if (input.avatar !== undefined) changes.avatar = input.avatar;
  await deps.knex('operators').where({ id: op.id }).update(changes);
  return loadUser(deps.knex, actor.operatorId, actor.workspaceId);
}
