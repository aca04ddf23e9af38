import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { lockToken, markTokenUsed } from './accountTokens';
import { findMembership } from './queries';
import { issueSession } from './issueSession';
import type { RenewTokenReq } from './schema';
import type { LoginView } from './presenters';
import { assertMayRenewInto } from './twoFactorGate';

export const RENEWAL_EXPIRED = 'Sua sessão expirou. Entre novamente.';

/**
 * Trades a renewal token for a new session, in the same workspace or in `workspaceId` (switching).
 * The renewal token rotates: the one presented is spent, the answer carries the next.
 */
export async function renewSession(deps: AppDeps, input: RenewTokenReq): Promise<LoginView> {
  return deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'renewal', input.renewalToken);
    if (!token || token.workspaceId === null) throw errors.authentication(RENEWAL_EXPIRED);
    const workspaceId = input.workspaceId ?? token.workspaceId;
    const member = await findMembership(trx, workspaceId, token.operatorId);
    if (!member || !member.isActive) {
      // Switching into a workspace one is not an active member of looks like a missing workspace.
      throw input.workspaceId !== undefined ? errors.notFound('Workspace não encontrado.') : errors.authentication(RENEWAL_EXPIRED);
    }
    await assertMayRenewInto(trx, token.operatorId, workspaceId, input.workspaceId !== undefined && input.workspaceId !== token.workspaceId);
    await markTokenUsed(trx, token.id);
    return issueSession(deps, trx, token.operatorId, workspaceId);
  });
}
