import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { hashPassword } from '../auth/passwords';
import { createAccountToken } from '../auth/accountTokens';
import { findOperatorByEmail, isEmailUniqueViolation } from '../auth/queries';
import { issueSession } from '../auth/issueSession';
import { confirmEmailMail, sendAfterCommit } from '../auth/mails';
import { NO_TRIAL_NOTICE, provisionWorkspace, startLifecycleAfterCommit } from '../workspaces/provisionWorkspace';
import type { SignupReq } from '../auth/schema';
import type { LoginView } from '../auth/presenters';

const EMAIL_TAKEN = 'Este e-mail já está cadastrado.';

/**
 * Operator, workspace, owner membership and trial in one transaction; mail and lifecycle after commit.
 * Only a registered operator owns an address: pending invitations to it (operators at verificationLevel 0)
 * neither block the signup nor join the new account until their own link is followed (docs/auth.md).
 * A used e-mail is a 409: the usual signup answer, its enumeration bounded by the signup rate limit
 * (docs/security.md). An address whose trial was used (a "+tag" variant) gets a workspace without one.
 */
export async function signup(deps: AppDeps, input: SignupReq): Promise<LoginView & { notice?: string }> {
  if (await findOperatorByEmail(deps.knex, input.email)) throw errors.conflict(EMAIL_TAKEN, 'email');
  const passwordHash = await hashPassword(input.password);
  let result;
  try {
    result = await deps.knex.transaction(async (trx) => {
      const [op] = await trx('operators')
        .insert({ name: input.name, email: input.email, passwordHash, verificationLevel: 1 })
        .returning('id');
      const provisioned = await provisionWorkspace(trx, deps.config, { name: input.workspace, ownerId: op.id, ownerEmail: input.email });
      const confirmToken = await createAccountToken(trx, { purpose: 'confirm_email', operatorId: op.id });
      const session = await issueSession(deps, trx, op.id, provisioned.workspaceId);
      return { provisioned, confirmToken, session };
    });
  } catch (err) {
    // Two signups racing for one e-mail: the unique index decides, the loser gets the same answer.
    if (isEmailUniqueViolation(err)) throw errors.conflict(EMAIL_TAKEN, 'email');
    throw err;
  }
  sendAfterCommit(deps, confirmEmailMail(deps.config, { email: input.email, name: input.name }, result.confirmToken));
  startLifecycleAfterCommit(deps, result.provisioned);
  return result.provisioned.trial ? result.session : { ...result.session, notice: NO_TRIAL_NOTICE };
}
