import type { Knex } from 'knex';

/**
 * The address a trial is counted against: lowercased, without a "+tag" in the local part, so
 * ana+1@empresa.com and ana+2@empresa.com (one mailbox) share one trial. The SQL of the migration that
 * recorded the older trials (20261124110100_create_trial_grants.ts) computes the same key.
 */
export function trialEmailKey(email: string): string {
  return email.trim().toLowerCase().replace(/\+[^@]*@/, '@');
}

/**
 * Records that this address gets its trial now; false when it already had one. Decided by the primary key
 * inside the caller's transaction, so two workspaces created at once by the same address get one trial.
 */
export async function claimTrial(trx: Knex.Transaction, input: { email: string; operatorId: number; workspaceId: number }): Promise<boolean> {
  const rows = await trx('trialGrants')
    .insert({ emailKey: trialEmailKey(input.email), operatorId: input.operatorId, workspaceId: input.workspaceId })
    .onConflict('emailKey')
    .ignore()
    .returning('emailKey');
  return rows.length > 0;
}
