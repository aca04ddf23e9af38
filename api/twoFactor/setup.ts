import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { openSecret, sealSecret } from '../channels/secretBox';
import { revokeTokens } from '../auth/accountTokens';
import { bumpOperatorVersion, findOperator } from '../auth/queries';
import { forgetOperator } from '../auth/membershipCache';
import { endRealtimeSessions } from '../auth/endRealtimeSessions';
import { newBackupCodes } from './backupCodes';
import { findTwoFactor, markEnabled, replaceBackupCodes, savePendingSecret } from './queries';
import { newTotpSecret, otpauthUri, totpStep } from './totp';
import { ALREADY_ENABLED, NO_PENDING_SETUP, WRONG_CODE } from './messages';

/** What the setup screen shows: the QR code's URI and the same secret for typing by hand. */
export interface SetupView {
  secret: string;
  otpauthUri: string;
}

/**
 * Starts (or restarts) the setup: a new secret, sealed with the channel-secrets key, waiting for the app's
 * first code. Never replaces an enabled secret (disable first).
 */
export async function startSetup(deps: Pick<AppDeps, 'config'>, db: Knex, operatorId: number): Promise<SetupView> {
  const op = await findOperator(db, operatorId);
  if (!op) throw errors.authentication();
  const secret = newTotpSecret();
  if (!(await savePendingSecret(db, operatorId, sealSecret(deps.config, secret)))) throw errors.conflict(ALREADY_ENABLED);
  return { secret, otpauthUri: otpauthUri(secret, op.email) };
}

/**
 * Turns two-factor login on with the app's first code (whose time step counts as used) and hands out 10
 * new backup codes, shown this once. Every other session of the operator ends: sessions opened with the
 * password alone must not outlive the switch (the caller issues the one it answers inside `trx`, then calls
 * endOtherSessions after the commit).
 */
export async function confirmSetup(deps: Pick<AppDeps, 'config'>, trx: Knex.Transaction, operatorId: number, code: string): Promise<string[]> {
  const tf = await findTwoFactor(trx, operatorId);
  if (!tf) throw errors.conflict(NO_PENDING_SETUP);
  if (tf.enabledAt) throw errors.conflict(ALREADY_ENABLED);
  const step = await totpStep(openSecret(deps.config, tf.secretSealed), code);
  if (step === undefined) throw errors.field('code', WRONG_CODE);
  if (!(await markEnabled(trx, operatorId, step))) throw errors.conflict(ALREADY_ENABLED);
  const { codes, hashes } = await newBackupCodes();
  await replaceBackupCodes(trx, operatorId, hashes);
  await bumpOperatorVersion(trx, operatorId);
  await revokeTokens(trx, operatorId, 'renewal');
  return codes;
}

/** After the commit of confirmSetup: cached memberships and live MQTT sessions of the old tokens go. */
export async function endOtherSessions(deps: AppDeps, operatorId: number): Promise<void> {
  forgetOperator(deps.knex, operatorId);
  await endRealtimeSessions(deps, operatorId);
}
