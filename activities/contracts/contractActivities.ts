import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ActivityDeps } from '../deps';
import { createStorage, type FileStorage } from '../../api/storage/storage';
import { formatOfFile } from '../../api/contracts/catalog';
import { publishContractStatus } from '../../api/contracts/realtime';
import type { ContractOutcome } from '../../workflows/contracts/contractImport';
import { parseContractFile, type ParsedContract } from './layouts';

export interface ContractRef {
  workspaceId: number;
  contractId: number;
}

export const PROCESS_MESSAGES = {
  missingFile: 'O arquivo do contrato não foi encontrado no armazenamento. Importe-o novamente.',
  changedFile: 'O arquivo armazenado não confere com o enviado (hash diferente). Importe-o novamente.',
  format: 'Formato de arquivo não reconhecido para contratos.',
  formalizedNumber: (n: string) => `O contrato ${n} já foi formalizado e não pode ser substituído.`,
  internal: 'Não foi possível processar o arquivo. Importe-o novamente.',
} as const;

interface CreatedRow {
  id: number;
  path: string | null;
  fileName: string | null;
}

/** The stored bytes and their SHA-256 (the stamp), read once. */
async function readStored(storage: FileStorage, key: string): Promise<{ bytes: Buffer; sha256: string } | undefined> {
  const object = await storage.get(key);
  if (!object) return undefined;
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) {
    const buf = chunk as Buffer;
    hash.update(buf);
    chunks.push(buf);
  }
  return { bytes: Buffer.concat(chunks), sha256: hash.digest('hex') };
}

const stillCreated = (trx: Knex.Transaction, ref: ContractRef) =>
  trx('contracts').where({ id: ref.contractId, workspaceId: ref.workspaceId, status: 'created' }).forUpdate().first('id');

/** Marks the contract failed with its reasons, if it is still being processed. Answers the ids that changed. */
async function markFailed(knex: Knex, ref: ContractRef, reason: string, stamp: string | null): Promise<number[]> {
  return knex.transaction(async (trx) => {
    if (!(await stillCreated(trx, ref))) return [];
    await trx('contracts').where({ id: ref.contractId }).update({ status: 'failed', error: reason.slice(0, 1000), stamp, updatedAt: trx.fn.now() });
    return [ref.contractId];
  });
}

/**
 * Writes a parsed contract (docs/contracts.md "Statuses"): processed, and older contracts of the workspace
 * with the same number overwritten by it; overwritten itself when a newer import of that number is already
 * in; failed when that number was formalized. One number at a time per workspace (an advisory lock).
 */
async function settle(knex: Knex, ref: ContractRef, parsed: ParsedContract, stamp: string): Promise<{ outcome: ContractOutcome; changed: number[] }> {
  return knex.transaction(async (trx) => {
    if (!(await stillCreated(trx, ref))) return { outcome: 'skipped' as const, changed: [] };
    const fields = { name: parsed.name, cpf: parsed.cpf, loanNumber: parsed.loanNumber, json: parsed.json === null ? null : JSON.stringify(parsed.json), stamp, error: null, updatedAt: trx.fn.now() };
    const self = trx('contracts').where({ id: ref.contractId });
    if (!parsed.loanNumber) {
      await self.update({ ...fields, status: 'processed' });
      return { outcome: 'processed' as const, changed: [ref.contractId] };
    }
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`contract-number:${ref.workspaceId}:${parsed.loanNumber}`]);
    const same: { id: number; status: string }[] = await trx('contracts')
      .where({ workspaceId: ref.workspaceId, loanNumber: parsed.loanNumber })
      .whereNot('id', ref.contractId)
      .whereIn('status', ['processed', 'rejected', 'formalized'])
      .orderBy('id')
      .forUpdate()
      .select('id', 'status');
    if (same.some((c) => c.status === 'formalized')) {
      await self.update({ ...fields, status: 'failed', error: PROCESS_MESSAGES.formalizedNumber(parsed.loanNumber) });
      return { outcome: 'failed' as const, changed: [ref.contractId] };
    }
    const newer = same.filter((c) => c.id > ref.contractId);
    if (newer.length) {
      await self.update({ ...fields, status: 'overwritten', replacedById: newer.at(-1)!.id });
      return { outcome: 'overwritten' as const, changed: [ref.contractId] };
    }
    const older = same.map((c) => c.id);
    await self.update({ ...fields, status: 'processed' });
    if (older.length) await trx('contracts').whereIn('id', older).update({ status: 'overwritten', replacedById: ref.contractId, updatedAt: trx.fn.now() });
    return { outcome: 'processed' as const, changed: [ref.contractId, ...older] };
  });
}

/**
 * The contract import's activities (workflows/contracts/contractImport.ts). Each is idempotent: a contract
 * is only touched while it is `created`, so a retried or repeated run changes nothing twice.
 */
export function contractActivities(deps: ActivityDeps) {
  let storage: FileStorage | undefined;
  const store = () => {
    if (!deps.config) throw new Error('contract activities need the config (storage)');
    storage ??= createStorage(deps.config);
    return storage;
  };
  const publish = async (ref: ContractRef, ids: number[]) => {
    await publishContractStatus(deps, ref.workspaceId, ids).catch((err: unknown) => deps.logger.warn({ err, ...ref }, 'contract status not published'));
  };

  return {
    /** Hashes, parses and settles one imported file. A file that cannot be read is `failed` with its reasons (not an error). */
    async processContract(ref: ContractRef): Promise<ContractOutcome> {
      const row = (await deps.knex('contracts').where({ id: ref.contractId, workspaceId: ref.workspaceId, status: 'created' }).first('id', 'path', 'file_name')) as CreatedRow | undefined;
      if (!row) return 'skipped';
      const file = row.path ? await deps.knex('stored_files').where({ workspaceId: ref.workspaceId, key: row.path }).first('mime', 'file_name', 'sha256') : undefined;
      const stored = file ? await readStored(store(), row.path!) : undefined;
      let changed: number[];
      let outcome: ContractOutcome;
      if (!file || !stored) {
        changed = await markFailed(deps.knex, ref, PROCESS_MESSAGES.missingFile, null);
        outcome = 'failed';
      } else if (file.sha256 && file.sha256 !== stored.sha256) {
        changed = await markFailed(deps.knex, ref, PROCESS_MESSAGES.changedFile, stored.sha256);
        outcome = 'failed';
      } else {
        const fileName = row.fileName ?? file.fileName;
        const format = formatOfFile({ mime: file.mime, fileName });
        const parsed = format ? await parseContractFile(format, stored.bytes, fileName) : ({ ok: false, problems: [PROCESS_MESSAGES.format] } as const);
        if (parsed.ok) ({ outcome, changed } = await settle(deps.knex, ref, parsed.contract, stored.sha256));
        else {
          changed = await markFailed(deps.knex, ref, parsed.problems.join(' '), stored.sha256);
          outcome = 'failed';
        }
      }
      if (!changed.length) return 'skipped';
      await publish(ref, changed);
      return outcome;
    },

    /** After the last retry of processContract: the file is failed with the generic reason. */
    async failContract(ref: ContractRef): Promise<ContractOutcome> {
      const changed = await markFailed(deps.knex, ref, PROCESS_MESSAGES.internal, null);
      if (!changed.length) return 'skipped';
      await publish(ref, changed);
      return 'failed';
    },
  };
}
