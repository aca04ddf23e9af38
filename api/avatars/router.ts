import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { authorize } from '../policy/policy';
import { createStorage } from '../storage/storage';
import { isStorageKey } from '../storage/keys';
import { findStoredFileByKey } from '../assets/queries';
import { findWorkspace } from '../auth/queries';
import { forgetWorkspaceRow } from '../auth/membershipCache';
import { presentWorkspace } from '../workspaces/presenters';
import { sendStoredObject } from '../assets/sendStoredObject';
import { receiveAvatar } from './receiveAvatar';
import { AVATAR_KEY_PREFIX, saveAvatar } from './saveAvatar';
import { AVATAR_MIMES } from './imageType';

/**
 * Avatar uploads (SPEC §7 "Avatars: multipart field avatar; response list item fileName") and their
 * public-by-key download. An avatar is shown where no token travels (widget, join page, <img>), so its
 * unguessable key is its credential; only avatar keys and image types are ever served this way.
 */
export function avatarsRouter(deps: AppDeps) {
  const router = new Router();
  const storage = createStorage(deps.config);
  const auth = authenticate(deps);
  const store = { knex: deps.knex, storage, config: deps.config };

  router.post('/operators/avatar', auth, async (ctx) => {
    const actor = actorOf(ctx);
    if (actor.kind !== 'operator') throw errors.forbidden();
    const url = await saveAvatar(store, await receiveAvatar(ctx.req), actor);
    const [operator] = await deps.knex('operators')
      .where({ id: actor.operatorId })
      .update({ avatar: url, updatedAt: deps.knex.fn.now() })
      .returning(['id', 'name', 'email', 'phone', 'avatar']);
    ctx.status = 201;
    ctx.body = { data: [{ fileName: url }], user: operator };
  });

  router.post('/workspace/avatar', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'workspace.update');
    const url = await saveAvatar(store, await receiveAvatar(ctx.req), actor);
    await deps.knex('workspaces').where({ id: actor.workspaceId }).update({ avatar: url, updatedAt: deps.knex.fn.now() });
    forgetWorkspaceRow(deps.knex, actor.workspaceId);
    const ws = await findWorkspace(deps.knex, actor.workspaceId);
    if (!ws) throw errors.notFound();
    ctx.status = 201;
    ctx.body = { data: [{ fileName: url }], workspace: presentWorkspace(ws) };
  });

  router.get('/avatars/:key', async (ctx) => {
    const key = String(ctx.params.key);
    if (!key.startsWith(AVATAR_KEY_PREFIX) || !isStorageKey(key)) throw errors.notFound();
    const row = await findStoredFileByKey(deps.knex, key);
    const object = row && AVATAR_MIMES.has(row.mime) ? await storage.get(key) : undefined;
    if (!row || !object) throw errors.notFound();
    // A new upload gets a new key, so a key's bytes never change.
    sendStoredObject(ctx, object, { contentType: row.mime, cacheControl: 'public, max-age=31536000, immutable' });
  });

  return router;
}
