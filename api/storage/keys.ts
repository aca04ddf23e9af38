import { randomBytes } from 'node:crypto';

const KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** A new unguessable key (144 random bits, URL-safe). */
export function newStorageKey(): string {
  return randomBytes(18).toString('base64url');
}

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

/** Keys become file names and URL segments: anything else is refused before it reaches a store. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}
