import type { Knex } from 'knex';

/** Reads and writes of the two-factor tables (migrations/20261129200000_add_two_factor.ts). */

export interface TwoFactorRow {
  operatorId: number;
  secretSealed: string;
  enabledAt: Date | null;
  lastUsedStep: number | null;
}

export interface BackupCodeRow {
  id: number;
  codeHash: string;
}

export async function findTwoFactor(db: Knex, operatorId: number): Promise<TwoFactorRow | undefined> {
  const row = await db('operatorTwoFactor').where({ operatorId }).first('operatorId', 'secretSealed', 'enabledAt', 'lastUsedStep');
  // bigint comes back as text from pg.
  return row ? { ...row, lastUsedStep: row.lastUsedStep === null ? null : Number(row.lastUsedStep) } : undefined;
}

/** A new secret waiting for its first code (replaces an unfinished setup; never an enabled one). */
export async function savePendingSecret(db: Knex, operatorId: number, secretSealed: string): Promise<boolean> {
  const rows = await db.raw(
    `INSERT INTO operator_two_factor (operator_id, secret_sealed) VALUES (?, ?)
     ON CONFLICT (operator_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_used_step = NULL, updated_at = now()
     WHERE operator_two_factor.enabled_at IS NULL
     RETURNING operator_id`,
    [operatorId, secretSealed],
  );
  return (rows as { rows: unknown[] }).rows.length === 1;
}

/** Turns the pending secret on, recording the step of the code that proved it. */
export async function markEnabled(db: Knex, operatorId: number, step: number): Promise<boolean> {
  const n = await db('operatorTwoFactor')
    .where({ operatorId })
    .whereNull('enabledAt')
    .update({ enabledAt: db.fn.now(), lastUsedStep: step, updatedAt: db.fn.now() });
  return n === 1;
}

/**
 * Spends a time step: succeeds only when it is later than the last accepted one, in one statement, so two
 * requests carrying the same code cannot both pass.
 */
export async function useStep(db: Knex, operatorId: number, step: number): Promise<boolean> {
  const n = await db('operatorTwoFactor')
    .where({ operatorId })
    .whereNotNull('enabledAt')
    .where((q) => {
      void q.whereNull('lastUsedStep').orWhere('lastUsedStep', '<', step);
    })
    .update({ lastUsedStep: step, updatedAt: db.fn.now() });
  return n === 1;
}

export async function unusedBackupCodes(db: Knex, operatorId: number): Promise<BackupCodeRow[]> {
  return db('operatorBackupCodes').where({ operatorId }).whereNull('usedAt').orderBy('id').select('id', 'codeHash');
}

export async function countUnusedBackupCodes(db: Knex, operatorId: number): Promise<number> {
  const [{ n }] = await db('operatorBackupCodes').where({ operatorId }).whereNull('usedAt').count({ n: '*' });
  return Number(n);
}

/** Spends one backup code; false when a concurrent request spent it first. */
export async function useBackupCode(db: Knex, id: number): Promise<boolean> {
  const n = await db('operatorBackupCodes').where({ id }).whereNull('usedAt').update({ usedAt: db.fn.now() });
  return n === 1;
}

/** Replaces every backup code of the operator (the old ones stop working). */
export async function replaceBackupCodes(db: Knex, operatorId: number, hashes: string[]): Promise<void> {
  await db('operatorBackupCodes').where({ operatorId }).delete();
  await db('operatorBackupCodes').insert(hashes.map((codeHash) => ({ operatorId, codeHash })));
}

export async function deleteTwoFactor(db: Knex, operatorId: number): Promise<void> {
  await db('operatorBackupCodes').where({ operatorId }).delete();
  await db('operatorTwoFactor').where({ operatorId }).delete();
}

/** The workspaces, among those the operator is an active member of, that require two-factor login. */
export async function requiringWorkspaces(db: Knex, operatorId: number): Promise<{ workspaceId: number; workspace: string }[]> {
  return db('workspaceMembers as m')
    .join('workspaces as w', 'w.id', 'm.workspace_id')
    .where({ 'm.operator_id': operatorId, 'm.is_active': true, 'w.require_two_factor': true })
    .orderBy('w.name')
    .select('w.id as workspaceId', 'w.name as workspace');
}

export async function setWorkspaceRequirement(db: Knex, workspaceId: number, required: boolean): Promise<void> {
  await db('workspaces').where({ id: workspaceId }).update({ requireTwoFactor: required });
}

/** The workspace's active members and whether each has two-factor login on (for the owner's screen). */
export async function membersTwoFactor(db: Knex, workspaceId: number): Promise<{ id: number; name: string; email: string; accessLevel: number; enabled: boolean }[]> {
  const rows = await db('workspaceMembers as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .leftJoin('operatorTwoFactor as t', 't.operator_id', 'm.operator_id')
    .where({ 'm.workspace_id': workspaceId, 'm.is_active': true })
    .where('o.verification_level', '>', 0)
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }])
    .select('o.id', 'o.name', 'o.email', 'm.access_level as accessLevel', db.raw('(t.enabled_at IS NOT NULL) AS enabled'));
  return rows as { id: number; name: string; email: string; accessLevel: number; enabled: boolean }[];
}
