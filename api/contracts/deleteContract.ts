import type { Knex } from 'knex';
import type { Actor } from '../policy/policy';
import type { FileStorage } from '../storage/storage';
import type { Logger } from '../logger';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Contract } from '../models/Contract';

export const FORMALIZED_KEPT = 'Um contrato formalizado não pode ser excluído.';

/**
 * Deletes a contract and its stored file (SPEC §4: a formalized contract cannot be deleted). The file's
 * bytes go after the rows committed; a contract it had overwritten keeps its status, its link cleared.
 */
export async function deleteContract(deps: { knex: Knex; logger: Logger }, storage: FileStorage, actor: Actor, id: number): Promise<void> {
  const key = await Contract.transaction(deps.knex, async (trx) => {
    const row = (await scoped(Contract, actor, trx).findById(id).forUpdate()) as Contract | undefined;
    if (!row) throw errors.notFound('Contrato não encontrado.');
    if (row.status === 'formalized') throw errors.conflict(FORMALIZED_KEPT);
    await row.$query(trx).delete();
    if (row.path) await trx('stored_files').where({ workspaceId: actor.workspaceId, key: row.path }).delete();
    return row.path;
  });
  if (key) await storage.delete(key).catch((err: unknown) => deps.logger.warn({ err, key }, 'deleted contract file not removed'));
}
