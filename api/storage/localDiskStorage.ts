import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey } from './keys';
import type { FileStorage } from './storage';

function isMissing(err: unknown): boolean {
  return (err as { code?: string }).code === 'ENOENT';
}

/**
 * Files on local disk: `<root>/<first two key characters>/<key>`, so no directory grows past a few
 * thousand entries. Writes go to a temporary name and are renamed into place, so a failed or aborted
 * upload never leaves a partial object under its key.
 */
export function createLocalDiskStorage(root: string): FileStorage {
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key.slice(0, 2), key);
  };

  return {
    async put(key: string, stream: Readable) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(stream, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        await rename(temp, target);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      return { size: (await stat(target)).size };
    },

    async get(key: string) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async delete(key: string) {
      try {
        await unlink(fileOf(key));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
  };
}
