import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { clientIp } from '../http/clientIp';
import { AppError } from '../http/errors';

const MINUTE = 60_000;

/**
 * Wrong codes, like wrong passwords (api/auth/limits.ts), are limited per client address and per account;
 * the account window is shared by every place a code is typed (login, disable, new backup codes), so a
 * stolen session cannot guess codes where the login cannot. Five wrong codes per 15 minutes make a guess
 * of a 6-digit code (3 steps accepted around now) succeed about once in 70 000 windows.
 */
export const TWO_FACTOR_LIMITS = {
  ip: { limit: 5, windowMs: 5 * MINUTE },
  account: { limit: 5, windowMs: 15 * MINUTE },
} as const;

/** A refusal of the code itself (wrong, or already used): the only failure that counts. */
export function isWrongCode(err: unknown): boolean {
  return err instanceof AppError && err.status === 400 && err.entries.some((e) => e.key === 'code');
}

/**
 * Runs one code check under the limits. The attempt holds its place in both windows while it runs (so
 * parallel guesses cannot pass a full window together) and gives it back unless the code was wrong.
 */
export async function limitFailedCodes<T>(deps: AppDeps, ctx: Context, operatorId: number, attempt: () => Promise<T>): Promise<T> {
  const { ip, account } = TWO_FACTOR_LIMITS;
  const releases: Array<() => unknown> = [await deps.rateLimiter.hit(`twoFactor:ip:${clientIp(ctx, deps.config.trustProxy)}`, ip.limit, ip.windowMs)];
  const releaseAll = () => Promise.all(releases.map((release) => release()));
  try {
    releases.push(await deps.rateLimiter.hit(`twoFactor:account:${operatorId}`, account.limit, account.windowMs));
    const result = await attempt();
    await releaseAll();
    return result;
  } catch (err) {
    if (!isWrongCode(err)) await releaseAll();
    throw err;
  }
}
