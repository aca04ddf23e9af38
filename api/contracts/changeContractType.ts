import type { Knex } from 'knex';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Contract } from '../models/Contract';
import { CONTRACT_MESSAGES, type ContractTypeUpdateReq } from './schema';

export const TYPE_LOCKED = 'Um contrato formalizado ou substituído não muda de tipo.';

/**
 * The detail's type edit (SPEC §5: saving is disabled without JSON): only a contract whose file was read
 * into data has a type to correct, and a formalized or overwritten one keeps the type it had.
 */
export async function changeContractType(knex: Knex, actor: Actor, id: number, input: ContractTypeUpdateReq): Promise<Contract> {
  return Contract.transaction(knex, async (trx) => {
    const row = (await scoped(Contract, actor, trx).findById(id).forUpdate()) as Contract | undefined;
    if (!row) throw errors.notFound('Contrato não encontrado.');
    if (row.json === null) throw errors.conflict(CONTRACT_MESSAGES.noJson, 'code');
    if (row.status === 'formalized' || row.status === 'overwritten') throw errors.conflict(TYPE_LOCKED, 'code');
    return (await row.$query(trx).patchAndFetch({ code: input.code, updatedAt: new Date() })) as Contract;
  });
}
