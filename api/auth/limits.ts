import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { clientIp } from '../http/clientIp';

const MINUTE = 60_000;

/**
 * Rate limits of the account calls (DESIGN.md §3): per client address and per account, so one address
 * cannot try many accounts and many addresses cannot try one account.
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
type IpLimited = 'login' | 'signup' | 'forgotPassword' | 'resetPassword';
type AccountLimited = 'login' | 'forgotPassword' | 'resendEmail';

export function limitIp(deps: AppDeps, ctx: Context, name: IpLimited): void {
  const { limit, windowMs }: Window = LIMITS[name].ip;
  deps.rateLimiter.hit(`${name}:ip:${clientIp(ctx, deps.config.trustProxy)}`, limit, windowMs);
}

/** `account` is the lowercased e-mail or the operator id, whichever the call knows. */
export function limitAccount(deps: AppDeps, name: AccountLimited, account: string | number): void {
  const { limit, windowMs }: Window = LIMITS[name].account;
  deps.rateLimiter.hit(`${name}:account:${String(account).toLowerCase()}`, limit, windowMs);
}
