import type { Knex } from 'knex';
import { countUnusedBackupCodes, findTwoFactor, requiringWorkspaces } from './queries';
import type { TwoFactorStatusView } from './presenters';

/** GET /operators/two-factor: the caller's own state, for the profile. */
export async function showTwoFactor(db: Knex, operatorId: number): Promise<TwoFactorStatusView> {
  const tf = await findTwoFactor(db, operatorId);
  const enabled = !!tf?.enabledAt;
  return {
    enabled,
    enabledAt: tf?.enabledAt ? new Date(tf.enabledAt).toISOString() : null,
    backupCodesLeft: enabled ? await countUnusedBackupCodes(db, operatorId) : 0,
    requiredBy: await requiringWorkspaces(db, operatorId),
  };
}
