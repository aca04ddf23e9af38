import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Config } from '../config';
import { AppError } from '../http/errors';
import { insertStoredFiles } from '../assets/queries';
import { admitUpload, budgetGuard, STORAGE_BUDGETS } from '../assets/storageBudgets';
import { createStorage } from '../storage/storage';
import { newStorageKey } from '../storage/keys';

export interface InboundFile {
  key: string;
  fileName: string;
  mime: string;
  size: number;
}

/**
 * A customer's file that did not fit in the workspace's storage budget (api/assets/storageBudgets.ts):
 * nothing of it was kept. Channels show `note` in the message instead of the file.
 */
export class InboundStorageFullError extends Error {
  readonly note: string;
  constructor(fileName: string) {
    const note = storageFullNote(fileName);
    super(note);
    this.name = 'InboundStorageFullError';
    this.note = note;
  }
}

const GiB = 1024 * 1024 * 1024;

/** What the team reads in place of a file refused by the workspace's storage budget. */
export function storageFullNote(fileName: string): string {
  return `Arquivo "${fileName.slice(0, 80)}" não recebido: o espaço para arquivos deste workspace (${STORAGE_BUDGETS.workspaceTotal / GiB} GB) está cheio.`;
}

/** The budget check's refusal (413 for the workspace total), as opposed to a database or storage fault. */
function isBudgetRefusal(err: unknown): boolean {
  return err instanceof AppError && (err.status === 413 || err.status === 429);
}

/**
 * A file to keep: its bytes in memory, or (e-mail attachments, up to 16 MB) a file on disk whose size and
 * sha256 were counted as it was written, so the bytes go from that file to storage without being held whole.
 */
export type InboundFileInput =
  | { bytes: Buffer; fileName: string; mime: string }
  | { path: string; size: number; sha256: string; fileName: string; mime: string };

/**
 * Keeps a file a customer sent on a channel (WhatsApp Cloud and QR, Telegram, e-mail): the bytes in the
 * store and its stored_files row owned by the channel; the name is cut to the column's 255 characters.
 * It counts against the workspace's storage budget like an upload: checked before the bytes are written
 * (with what this node is storing at the same time) and again, exactly, under the workspace's storage lock
 * in the transaction that records the row. Over the budget it throws InboundStorageFullError and nothing
 * is left behind (the object is removed, no row is written).
 */
export async function storeInboundFile(
  deps: { knex: Knex; config: Pick<Config, 'dataDir'> },
  owner: { workspaceId: number; channelId: number },
  file: InboundFileInput,
): Promise<InboundFile> {
  const fileName = file.fileName.slice(0, 255);
  const size = 'bytes' in file ? file.bytes.length : file.size;
  const sha256 = 'bytes' in file ? createHash('sha256').update(file.bytes).digest('hex') : file.sha256;
  const scope = { workspaceId: owner.workspaceId };
  let release: () => void;
  try {
    release = await admitUpload(deps.knex, scope, size);
  } catch (err) {
    if (isBudgetRefusal(err)) throw new InboundStorageFullError(fileName);
    throw err;
  }
  const storage = createStorage(deps.config);
  const key = newStorageKey();
  try {
    await storage.put(key, 'bytes' in file ? Readable.from(file.bytes) : createReadStream(file.path));
    try {
      await insertStoredFiles(
        deps.knex,
        [
          {
            workspaceId: owner.workspaceId,
            operatorId: null,
            channelId: owner.channelId,
            key,
            fileName,
            mime: file.mime,
            size,
            sha256,
          },
        ],
        budgetGuard(scope, size),
      );
    } catch (err) {
      await storage.delete(key).catch(() => undefined);
      if (isBudgetRefusal(err)) throw new InboundStorageFullError(fileName);
      throw err;
    }
  } finally {
    release();
  }
  return { key, fileName, mime: file.mime, size };
}
