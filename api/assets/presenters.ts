import type { Config } from '../config';
import { signedDownloadUrl } from './signedUrl';
import type { StoredFileRow } from './queries';

/** The file entry of docs/api/inbox.md: what a file message's content carries, plus a signed URL. */
export function presentStoredFile(config: Pick<Config, 'jwtSecret' | 'publicUrl'>, row: StoredFileRow) {
  return { key: row.key, fileName: row.fileName, mime: row.mime, size: row.size, url: signedDownloadUrl(config, row.key) };
}
