import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** POST/PUT/GET /workspace (SPEC §7). */
export function workspacesRouter(_deps: AppDeps) {
  const router = new Router();
  return router;
}
