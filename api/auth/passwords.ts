import { hash, verify } from '@node-rs/argon2';

/** The argon2id cost of new hashes: memory in KiB, passes, lanes. */
export interface HashingCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * OWASP's minimum for argon2id (m=19456 KiB, t=2, p=1). The product has no switch to lower it: no
 * environment variable or configuration reads here. Only tests lower it (setHashingCostForTests, called
 * from test/helpers/hooks.ts); a hash records its own cost, so verifying never depends on this.
 */
export const OWASP_HASHING_COST: Readonly<HashingCost> = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

let cost: Readonly<HashingCost> = OWASP_HASHING_COST;

/** Test code only: the cost of hashes made from now on in this process. Product code never calls it. */
export function setHashingCostForTests(next: Readonly<HashingCost>): void {
  cost = Object.freeze({ ...next });
}

const options = () => ({ algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable under isolatedModules) */, ...cost }) as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options());
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend comparable time when there is no user, so timing does not reveal which e-mails exist.
    await hash(password, options());
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
