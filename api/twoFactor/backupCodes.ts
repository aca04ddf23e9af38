import { randomInt } from 'node:crypto';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { BACKUP_CODE_LENGTH } from './schema';

/** How many backup codes a setup (or a regeneration) hands out. */
export const BACKUP_CODE_COUNT = 10;
/** No 0/o, 1/l/i: codes are read off paper. 31 symbols × 10 ≈ 49 bits, stored as argon2id hashes. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One code as typed and compared: 10 lowercase symbols, no separator. */
function newCode(): string {
  let code = '';
  for (let i = 0; i < BACKUP_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** How a code is shown: two groups of five. */
export function displayCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** New codes: the display form (shown once) and their hashes (stored). */
export async function newBackupCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) codes.add(newCode());
  const list = [...codes];
  const hashes = await Promise.all(list.map((c) => hashPassword(c)));
  return { codes: list.map(displayCode), hashes };
}

/** The stored code this input is, if any (input already normalized by the schema: lowercase, no dash). */
export async function matchBackupCode<T extends { codeHash: string }>(rows: T[], code: string): Promise<T | undefined> {
  if (code.length !== BACKUP_CODE_LENGTH) return undefined;
  for (const row of rows) if (await verifyPassword(row.codeHash, code)) return row;
  return undefined;
}
