import type { Context, Middleware } from 'koa';
import { actorOf } from './authenticate';
import { authorize, type Action } from '../policy/policy';
import { errors } from '../http/errors';

/**
 * A download opened in a new window (a contract's file, a campaign's report) is reached two ways: with the
 * bearer, or with the short-lived signed link (`?authorization=`) the app asked for, since a new window
 * carries no bearer. The signed link skips the usual authentication; without one it applies.
 */
export function bearerOrSignedLink(auth: Middleware): Middleware {
  return (ctx, next) => (ctx.query.authorization !== undefined ? next() : auth(ctx, next));
}

/**
 * The workspace whose row the download may read: the signed link's, when it verifies for this row (an
 * invalid or expired one answers 401 with `invalid`), or the caller's, at the level `action` needs.
 */
export function downloadWorkspace(ctx: Context, verify: (authorization: unknown) => number | undefined, invalid: string, action: Action): number {
  if (ctx.query.authorization !== undefined) {
    const signed = verify(ctx.query.authorization);
    if (signed === undefined) throw errors.authentication(invalid);
    return signed;
  }
  const actor = actorOf(ctx);
  authorize(actor, action);
  return actor.workspaceId;
}
