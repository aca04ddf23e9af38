import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { authorizePerson } from '../policy/policy';
import { errors } from '../http/errors';
import { parseBody } from '../http/validate';
import { membershipCacheFor } from '../auth/membershipCache';
import { WorkspaceCreateSchema, WorkspaceUpdateSchema } from './schema';
import { createWorkspace } from './createWorkspace';
import { updateWorkspace } from './updateWorkspace';
import { presentWorkspace } from './presenters';

/** POST/PUT/GET /workspace (SPEC §7). */
export function workspacesRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/workspace', auth, async (ctx) => {
    // From the per-process token cache (api/auth/membershipCache.ts): no round trip on most requests.
    const ws = await membershipCacheFor(deps.knex).getWorkspace(actorOf(ctx).workspaceId);
    if (!ws) throw errors.notFound();
    ctx.body = { data: presentWorkspace(ws) };
  });

  router.post('/workspace', auth, async (ctx) => {
    authorizePerson(actorOf(ctx));
    const input = parseBody(ctx, WorkspaceCreateSchema);
    ctx.status = 201;
    ctx.body = { data: await createWorkspace(deps, actorOf(ctx), input) };
  });

  router.put('/workspace', auth, async (ctx) => {
    const actor = actorOf(ctx);
    const input = parseBody(ctx, WorkspaceUpdateSchema);
    ctx.body = { data: presentWorkspace(await updateWorkspace(deps, actor, input)) };
  });

  return router;
}
