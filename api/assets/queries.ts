import type { Knex } from 'knex';
import { StoredFile } from '../models/StoredFile';

export type StoredFileRow = Pick<StoredFile, 'key' | 'fileName' | 'mime' | 'size' | 'workspaceId'>;

export async function insertStoredFiles(
  knex: Knex,
  rows: { workspaceId: number; operatorId: number | null; key: string; fileName: string; mime: string; size: number; sha256: string }[],
): Promise<StoredFileRow[]> {
  return knex.transaction(async (trx) => {
    const inserted = await StoredFile.query(trx).insert(rows).returning(['key', 'fileName', 'mime', 'size', 'workspaceId'] as never);
    return inserted as unknown as StoredFileRow[];
  });
}

/**
 * The file a signed download URL names. Deliberately not workspace-scoped: the signature, made by the
 * server for a viewer who could see the message, is the authorization; keys are unique and unguessable.
 */
export async function findStoredFileByKey(knex: Knex, key: string): Promise<StoredFileRow | undefined> {
  return (await StoredFile.query(knex).findOne({ key }).select('key', 'fileName', 'mime', 'size', 'workspaceId')) as StoredFileRow | undefined;
}
