import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { issueSession } from '../auth/issueSession';
import { lockChallenge, spendChallenge } from '../auth/twoFactorChallenges';
import { confirmSetup, endOtherSessions, startSetup, type SetupView } from './setup';
import { CHALLENGE_EXPIRED } from './messages';
import type { TwoFactorEnabledView } from './presenters';
import type { TwoFactorChallengeReq, TwoFactorLoginEnableReq } from './schema';

/**
 * The setup a workspace requires, done during login (docs/two-factor.md "Exigir da equipe"): the setup
 * challenge stands for the proven password. Starting shows the QR code; the app's first code turns it on
 * and opens the session, with the backup codes to keep.
 */
export async function startLoginSetup(deps: AppDeps, input: TwoFactorChallengeReq): Promise<SetupView> {
  return deps.knex.transaction(async (trx) => {
    const challenge = await lockChallenge(trx, 'setup', input.challengeToken);
    if (!challenge) throw errors.authentication(CHALLENGE_EXPIRED);
    return startSetup(deps, trx, challenge.operatorId);
  });
}

export async function finishLoginSetup(deps: AppDeps, input: TwoFactorLoginEnableReq): Promise<TwoFactorEnabledView> {
  const { view, operatorId } = await deps.knex.transaction(async (trx) => {
    const challenge = await lockChallenge(trx, 'setup', input.challengeToken);
    if (!challenge) throw errors.authentication(CHALLENGE_EXPIRED);
    const backupCodes = await confirmSetup(deps, trx, challenge.operatorId, input.code);
    await spendChallenge(trx, challenge.id);
    const session = await issueSession(deps, trx, challenge.operatorId, challenge.workspaceId);
    return { view: { backupCodes, session }, operatorId: challenge.operatorId };
  });
  await endOtherSessions(deps, operatorId);
  return view;
}
