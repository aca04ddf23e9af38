import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, errors } from '../http/errors';
import { issueSession } from '../auth/issueSession';
import type { LoginView } from '../auth/presenters';
import { acceptCode } from './acceptCode';
import { countChallengeFailure, lockChallenge, spendChallenge } from '../auth/twoFactorChallenges';
import { isWrongCode, limitFailedCodes } from './limits';
import { CHALLENGE_EXPIRED } from './messages';
import type { TwoFactorLoginReq } from './schema';

/**
 * POST /operators/login/two-factor: the code after the password. A wrong code counts against the address,
 * the account and the challenge (five per challenge, then the password is asked again); the right one
 * spends the challenge and opens the session in the workspace the login was entering.
 */
export async function loginWithCode(deps: AppDeps, ctx: Context, input: TwoFactorLoginReq): Promise<LoginView> {
  let challengeId: number | undefined;
  try {
    return await deps.knex.transaction(async (trx) => {
      const challenge = await lockChallenge(trx, 'code', input.challengeToken);
      if (!challenge) throw errors.authentication(CHALLENGE_EXPIRED);
      challengeId = challenge.id;
      return limitFailedCodes(deps, ctx, challenge.operatorId, async () => {
        await acceptCode(deps.config, trx, challenge.operatorId, input.code);
        await spendChallenge(trx, challenge.id);
        return issueSession(deps, trx, challenge.operatorId, challenge.workspaceId);
      });
    });
  } catch (err) {
    if (challengeId !== undefined && isWrongCode(err)) await countChallengeFailure(deps.knex, challengeId);
    // Two-factor login switched off from another session between the password and the code: start over.
    if (err instanceof AppError && err.status === 409) throw errors.authentication(CHALLENGE_EXPIRED);
    throw err;
  }
}
