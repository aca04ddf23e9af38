import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** Operator account calls of SPEC §7 (signup, login, tokens, passwords, profile, invitations). */
export function authRouter(_deps: AppDeps) {
  const router = new Router();
  return router;
}
