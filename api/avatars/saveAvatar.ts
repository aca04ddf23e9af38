import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Config } from '../config';
import { errors } from '../http/errors';
import type { FileStorage } from '../storage/storage';
import { newStorageKey } from '../storage/keys';
import { insertStoredFiles } from '../assets/queries';
import { avatarImageType } from './imageType';

/** Avatar keys carry this prefix: only such keys are ever served without a signature. */
export const AVATAR_KEY_PREFIX = 'av_';

export function avatarUrl(config: Pick<Config, 'publicUrl'>, key: string): string {
  return `${config.publicUrl}/api/avatars/${key}`;
}

/** Checks the bytes are an image, stores them and records the file; answers the public avatar URL. */
export async function saveAvatar(
  deps: { knex: Knex; storage: FileStorage; config: Pick<Config, 'publicUrl'> },
  upload: { bytes: Buffer; fileName: string },
  owner: { workspaceId: number; operatorId: number | null },
): Promise<string> {
  const mime = avatarImageType(upload.bytes);
  if (!mime) throw errors.field('avatar', 'O arquivo deve ser uma imagem (PNG, JPEG, GIF ou WebP).');
  const key = `${AVATAR_KEY_PREFIX}${newStorageKey()}`;
  await deps.storage.put(key, Readable.from([upload.bytes]));
  try {
    await insertStoredFiles(deps.knex, [
      {
        workspaceId: owner.workspaceId,
        operatorId: owner.operatorId || null,
        key,
        fileName: upload.fileName,
        mime,
        size: upload.bytes.length,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
      },
    ]);
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return avatarUrl(deps.config, key);
}
