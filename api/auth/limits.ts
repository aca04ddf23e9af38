import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { clientIp } from '../http/clientIp';
import { AppError } from '../http/errors';

const MINUTE = 60_000;

/**
 * Rate limits of the account calls (DESIGN.md §3): per client address and per account, so one address
 * cannot try many accounts and many addresses cannot try one account. Login counts failed attempts only
 * (see `limitFailedLogins`): six agents behind one office address all get in.
 */
export const LIMITS = {
  login: { ip: { limit: 5, windowMs: 5 * MINUTE }, account: { limit: 10, windowMs: 15 * MINUTE } },
  signup: { ip: { limit: 10, windowMs: 60 * MINUTE } },
  forgotPassword: { ip: { limit: 5, windowMs: 15 * MINUTE }, account: { limit: 3, windowMs: 15 * MINUTE } },
  resetPassword: { ip: { limit: 10, windowMs: 15 * MINUTE } },
  resendEmail: { account: { limit: 3, windowMs: 15 * MINUTE } },
} as const;

interface Window {
  limit: number;
  windowMs: number;
}
type IpLimited = 'signup' | 'forgotPassword' | 'resetPassword';
type AccountLimited = 'forgotPassword' | 'resendEmail';

export async function limitIp(deps: AppDeps, ctx: Context, name: IpLimited): Promise<void> {
  const { limit, windowMs }: Window = LIMITS[name].ip;
  await deps.rateLimiter.hit(`${name}:ip:${clientIp(ctx, deps.config.trustProxy)}`, limit, windowMs);
}

/** `account` is the lowercased e-mail or the operator id, whichever the call knows. */
export async function limitAccount(deps: AppDeps, name: AccountLimited, account: string | number): Promise<void> {
  const { limit, windowMs }: Window = LIMITS[name].account;
  await deps.rateLimiter.hit(`${name}:account:${String(account).toLowerCase()}`, limit, windowMs);
}

/**
 * Runs one login attempt under the login limits, counting it only when it fails with a 401 (a guess).
 * The attempt holds its place in both windows while the password is checked, so parallel guesses cannot
 * all pass a full window together; a success, or a failure that is not a guess, gives the place back.
 */
export async function limitFailedLogins<T>(deps: AppDeps, ctx: Context, email: string, attempt: () => Promise<T>): Promise<T> {
  const { ip, account } = LIMITS.login;
  const releases = [await deps.rateLimiter.hit(`login:ip:${clientIp(ctx, deps.config.trustProxy)}`, ip.limit, ip.windowMs)];
  const releaseAll = () => Promise.all(releases.map((release) => release()));
  try {
    releases.push(await deps.rateLimiter.hit(`login:account:${email.toLowerCase()}`, account.limit, account.windowMs));
    const result = await attempt();
    await releaseAll();
    return result;
  } catch (err) {
    if (!(err instanceof AppError && err.status === 401)) await releaseAll();
    throw err;
  }
}
