import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import type { FileStorage } from '../storage/storage';
import { AppError, errors, type FieldError } from '../http/errors';
import { receiveUploads } from '../assets/receiveUploads';
import type { StoredFileRow } from '../assets/queries';
import { Contract } from '../models/Contract';
import { contractType, FORMAT_LABELS, formatOfFile, MAX_IMPORT_FILES, type ContractType } from './catalog';
import { CONTRACT_MESSAGES, ContractCodeSchema } from './schema';
import { startContractImportAfterCommit } from './importGateway';

/** Files arrive as `files` (repeated, or `files[]`) or `file0`, `file1`…; the type as the `code` field. */
const FILE_FIELDS = /^(files(\[\])?|file\d{1,2})$/;

const formatList = (type: ContractType) => {
  const labels = type.formats.map((f) => FORMAT_LABELS[f]);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} ou ${labels.at(-1)}` : labels[0]!;
};

/** Why a received file cannot be a contract of this type (its bytes were already judged safe to store). */
function fileProblem(file: StoredFileRow, type: ContractType): string | undefined {
  if (file.size === 0) return `${file.fileName}: o arquivo está vazio.`;
  const format = formatOfFile(file);
  if (!format || !type.formats.includes(format)) return `${file.fileName}: o tipo ${type.name} aceita arquivos ${formatList(type)}.`;
  return undefined;
}

/** Removes what the upload stored (rows, then objects) when the import is refused after it. */
async function discard(deps: Pick<AppDeps, 'knex' | 'logger'>, storage: FileStorage, workspaceId: number, files: StoredFileRow[]): Promise<void> {
  if (!files.length) return;
  const keys = files.map((f) => f.key);
  await deps.knex('stored_files').where({ workspaceId }).whereIn('key', keys).delete();
  await Promise.all(keys.map((key) => storage.delete(key).catch((err: unknown) => deps.logger.warn({ err, key }, 'refused contract file not removed'))));
}

/**
 * 'Importar Contrato' (docs/contracts.md "Import"): one or more files and a type. Each file is stored
 * (16 MB, type checked by its bytes), must be a format its type accepts, and becomes a contract `created`
 * ('Processando'); the `contract-import:` workflow then hashes and parses them. A refused import leaves
 * nothing behind: no stored file, no contract.
 */
export async function importContracts(deps: AppDeps, storage: FileStorage, actor: Actor, req: IncomingMessage): Promise<Contract[]> {
  let code: string | undefined;
  const typeOf = () => {
    const parsed = ContractCodeSchema.safeParse(code);
    return parsed.success ? contractType(parsed.data) : undefined;
  };
  const codeProblem: FieldError = { key: 'code', descriptions: [CONTRACT_MESSAGES.code] };
  let files: StoredFileRow[];
  try {
    files = await receiveUploads({ knex: deps.knex, storage }, req, {
      workspaceId: actor.workspaceId,
      operatorId: actor.operatorId,
      fieldPattern: FILE_FIELDS,
      maxFiles: MAX_IMPORT_FILES,
      logger: deps.logger,
      allowNone: true,
      onField: (name, value) => {
        if (name === 'code') code = value.trim();
      },
    });
  } catch (err) {
    // Files refused by their bytes (an unsafe type): a missing or unknown type is named in the same answer.
    if (err instanceof AppError && err.name === 'ValidationError' && err.entries.every((e) => e.key !== undefined) && !typeOf()) {
      throw errors.validation([...err.entries.map((e) => ({ key: e.key!, descriptions: e.descriptions })), codeProblem]);
    }
    throw err;
  }
  const problems: FieldError[] = [];
  const type = typeOf();
  if (!type) problems.push(codeProblem);
  if (!files.length) problems.push({ key: 'files', descriptions: [CONTRACT_MESSAGES.files] });
  else if (type) {
    const refused = files.map((f) => fileProblem(f, type)).filter((p): p is string => p !== undefined);
    if (refused.length) problems.push({ key: 'files', descriptions: refused });
  }
  if (problems.length) {
    await discard(deps, storage, actor.workspaceId, files);
    throw errors.validation(problems);
  }

  const importId = randomUUID();
  let contracts: Contract[];
  try {
    contracts = await Contract.query(deps.knex).insert(
      files.map((f) => ({
        workspaceId: actor.workspaceId,
        operatorId: actor.operatorId,
        name: f.fileName.slice(0, 255),
        fileName: f.fileName,
        code: type!.code,
        status: 'created' as const,
        path: f.key,
        importId,
      })),
    );
  } catch (err) {
    await discard(deps, storage, actor.workspaceId, files);
    throw err;
  }
  await startContractImportAfterCommit(deps, { workspaceId: actor.workspaceId, importId, contractIds: contracts.map((c) => c.id) });
  return contracts;
}
