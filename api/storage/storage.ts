import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { createLocalDiskStorage } from './localDiskStorage';

export interface StoredObject {
  stream: Readable;
  size: number;
}

/**
 * Where uploaded bytes live (DESIGN.md §3). Keys are opaque, flat and URL-safe; metadata (name, type,
 * workspace) lives in stored_files, never in the store. An S3-compatible store is a second implementation.
 */
export interface FileStorage {
  /** Stores the whole stream under `key`; nothing is visible under the key unless it succeeds. */
  put(key: string, stream: Readable): Promise<{ size: number }>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

/** The configured store: local disk under DATA_DIR/files (the only one so far). */
export function createStorage(config: Pick<Config, 'dataDir'>): FileStorage {
  return createLocalDiskStorage(path.join(config.dataDir, 'files'));
}
