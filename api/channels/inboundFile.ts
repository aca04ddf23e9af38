import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Config } from '../config';
import { createStorage } from '../storage/storage';
import { newStorageKey } from '../storage/keys';

export interface InboundFile {
  key: string;
  fileName: string;
  mime: string;
  size: number;
}

/**
 * Keeps a file a customer sent on a channel (WhatsApp Cloud and QR, Telegram, e-mail): the bytes in the
 * store and its stored_files row owned by the channel; the name is cut to the column's 255 characters.
 */
export async function storeInboundFile(
  deps: { knex: Knex; config: Pick<Config, 'dataDir'> },
  owner: { workspaceId: number; channelId: number },
  file: { bytes: Buffer; fileName: string; mime: string },
): Promise<InboundFile> {
  const key = newStorageKey();
  const fileName = file.fileName.slice(0, 255);
  await createStorage(deps.config).put(key, Readable.from(file.bytes));
  await deps.knex('stored_files').insert({ workspaceId: owner.workspaceId, key, fileName, mime: file.mime, size: file.bytes.length, channelId: owner.channelId });
  return { key, fileName, mime: file.mime, size: file.bytes.length };
}
