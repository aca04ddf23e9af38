import type { Knex } from 'knex';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Contract } from '../models/Contract';
import type { ContractDecisionReq } from './schema';

export const NOT_WAITING = 'Só um contrato aguardando formalização pode ser formalizado ou recusado.';

/**
 * The client's answer to a contract waiting for formalization (docs/contracts.md "Statuses"): formalized
 * (dated now) or rejected. Nothing else moves by hand.
 */
export async function decideContract(knex: Knex, actor: Actor, id: number, input: ContractDecisionReq): Promise<Contract> {
  return Contract.transaction(knex, async (trx) => {
    const row = (await scoped(Contract, actor, trx).findById(id).forUpdate()) as Contract | undefined;
    if (!row) throw errors.notFound('Contrato não encontrado.');
    if (row.status !== 'processed') throw errors.conflict(NOT_WAITING, 'status');
    const now = new Date();
    return (await row.$query(trx).patchAndFetch({ status: input.status, formalizedAt: input.status === 'formalized' ? now : null, updatedAt: now })) as Contract;
  });
}
