import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { acceptCode } from './acceptCode';
import { newBackupCodes } from './backupCodes';
import { limitFailedCodes } from './limits';
import { replaceBackupCodes } from './queries';
import type { TwoFactorCodeReq } from './schema';

/** POST /operators/two-factor/backup-codes: a current code replaces every backup code with 10 new ones (shown once). */
export async function regenerateBackupCodes(deps: AppDeps, ctx: Context, actor: Actor, input: TwoFactorCodeReq): Promise<{ backupCodes: string[] }> {
  const { codes, hashes } = await newBackupCodes();
  await limitFailedCodes(deps, ctx, actor.operatorId, () =>
    deps.knex.transaction(async (trx) => {
      await acceptCode(deps.config, trx, actor.operatorId, input.code);
      await replaceBackupCodes(trx, actor.operatorId, hashes);
    }),
  );
  return { backupCodes: codes };
}
