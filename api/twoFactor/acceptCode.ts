import type { Knex } from 'knex';
import type { Config } from '../config';
import { errors } from '../http/errors';
import { openSecret } from '../channels/secretBox';
import { BACKUP_CODE_LENGTH } from './schema';
import { matchBackupCode } from './backupCodes';
import { findTwoFactor, unusedBackupCodes, useBackupCode, useStep } from './queries';
import { totpStep } from './totp';
import { BACKUP_CODE_ALREADY_USED, CODE_ALREADY_USED, NOT_ENABLED, WRONG_CODE } from './messages';

/**
 * Accepts a code of an operator with two-factor login on, and spends it: an app code's time step must be
 * later than the last accepted one (a code is never accepted twice, nor an older one), a backup code must
 * be unused and is then used up. `code` comes normalized from the schema (digits, or a lowercase backup code).
 * Refusals are ValidationErrors on `code` (what limitFailedCodes counts).
 */
export async function acceptCode(config: Pick<Config, 'channelSecretsKey'>, db: Knex, operatorId: number, code: string): Promise<'totp' | 'backup'> {
  const tf = await findTwoFactor(db, operatorId);
  if (!tf?.enabledAt) throw errors.conflict(NOT_ENABLED);
  if (code.length === BACKUP_CODE_LENGTH) {
    const row = await matchBackupCode(await unusedBackupCodes(db, operatorId), code);
    if (!row) throw errors.field('code', WRONG_CODE);
    if (!(await useBackupCode(db, row.id))) throw errors.field('code', BACKUP_CODE_ALREADY_USED);
    return 'backup';
  }
  const step = await totpStep(openSecret(config, tf.secretSealed), code);
  if (step === undefined) throw errors.field('code', WRONG_CODE);
  if (tf.lastUsedStep !== null && step <= tf.lastUsedStep) throw errors.field('code', CODE_ALREADY_USED);
  if (!(await useStep(db, operatorId, step))) throw errors.field('code', CODE_ALREADY_USED);
  return 'totp';
}
