import type { Contract } from '../models/Contract';

/**
 * SPEC §3 Contract as the list and the detail show it. `path` is where its file downloads (with a bearer,
 * or the `authorization` of POST /contract/{id}/link in a new window), never the storage key; `formalized`
 * is the date it was formalized.
 */
export function presentContract(c: Contract) {
  return {
    id: c.id,
    name: c.name,
    loanNumber: c.loanNumber,
    cpf: c.cpf,
    code: c.code,
    json: c.json,
    status: c.status,
    stamp: c.stamp,
    path: c.path ? `/api/contract/${c.id}/download` : null,
    fileName: c.fileName,
    error: c.error,
    replacedById: c.replacedById,
    createdAt: c.createdAt,
    formalized: c.formalizedAt,
    updatedAt: c.updatedAt,
  };
}

export type ContractView = ReturnType<typeof presentContract>;

/** What `contract.status` carries live to level 6+ members (api/contracts/realtime.ts). */
export function presentContractStatus(c: Pick<Contract, 'id' | 'status' | 'error'>) {
  return { id: c.id, status: c.status, error: c.error };
}
