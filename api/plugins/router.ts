import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Plugin } from '../models/Plugin';
import { errors } from '../http/errors';
import { validateUserUrl } from '../http/guardedFetch';
import { actorOf } from '../auth/authenticate';
import { parseBody } from '../http/validate';
import { authorize, can } from '../policy/policy';
import { loadViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { BUILT_IN_PLUGIN, loopbackAllowedForTests } from './endpoint';
import { signPluginToken } from './pluginToken';
import { PluginCreateSchema, PluginTokenSchema, PluginUpdateSchema, type PluginCreateReq, type PluginUpdateReq } from './schema';

/** Rows answered to someone who manages plugins (level 6+): only they see the auth secret (settings screen). */
const secretShownFor = new WeakSet<Plugin>();

export function presentPlugin(row: Plugin) {
  return {
    id: row.id,
    name: row.name,
    endpoint: row.endpoint,
    dev: row.dev,
    ...(secretShownFor.has(row) ? { authSecret: row.authSecret } : {}),
    sort: row.sort,
    createdAt: row.createdAt,
  };
}

const newAuthSecret = () => randomBytes(24).toString('base64url');

/**
 * Plugins at /api/plugin (SPEC §2/§7): every level reads them because the inbox loads each one in its
 * right panel; level 6+ writes and only they see the auth secret. The secret is generated here, never
 * chosen by a client, and never sent to a plugin frame: the inbox asks POST /api/plugin/:id/token for a
 * short-lived token signed with it (pluginToken.ts, docs/plugins.md).
 */
export function pluginsRouter(deps: AppDeps) {
  const router = resourceRouter<Plugin, PluginCreateReq, PluginUpdateReq>(deps, {
    path: '/plugin',
    resource: 'plugin',
    model: Plugin,
    createSchema: PluginCreateSchema,
    updateSchema: PluginUpdateSchema,
    readAction: 'plugins.read',
    writeAction: 'plugins.manage',
    list: { sortable: ['name', 'sort', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, searchColumns: ['name', 'endpoint'], maxLimit: 100 },
    sortColumn: 'sort',
    present: presentPlugin,
    load(rows, actor) {
      if (can(actor, 'plugins.manage')) for (const row of rows) secretShownFor.add(row);
    },
    async toColumns(input, _actor, _trx, mode) {
      const { regenerateSecret, ...columns } = input as PluginUpdateReq;
      // The schema's literal check runs in the browser too; here the name is also resolved, so a public
      // name pointing at a private address is refused as well. A built-in page ('/plugins/…') is the app's own.
      if (columns.endpoint !== undefined && !BUILT_IN_PLUGIN.test(columns.endpoint)) {
        const reason = await validateUserUrl(columns.endpoint, { allowLoopbackForTests: loopbackAllowedForTests() });
        if (reason) throw errors.field('endpoint', reason);
      }
      if (mode === 'create' || regenerateSecret) return { ...columns, authSecret: newAuthSecret() };
      return columns;
    },
  });

  // The token for one plugin frame: the operator, and the conversation open beside it if they may see it.
  router.post('/plugin/:id/token', async (ctx: Context) => {
    const actor = actorOf(ctx);
    authorize(actor, 'plugins.read');
    const { conversationId } = parseBody(ctx, PluginTokenSchema);
    const id = Number(ctx.params.id);
    const plugin = Number.isSafeInteger(id) && id > 0 ? await Plugin.query(deps.knex).where({ workspaceId: actor.workspaceId, id }).first() : undefined;
    if (!plugin) throw errors.notFound();
    const conversation = conversationId ? await findVisibleConversation(deps.knex, await loadViewer(deps.knex, actor), conversationId) : undefined;
    ctx.body = {
      data: await signPluginToken(plugin, {
        workspaceId: actor.workspaceId,
        operatorId: actor.operatorId,
        conversationId: conversation?.id ?? null,
        customerId: conversation?.customerId ?? null,
      }, new URL(deps.config.publicUrl).origin),
    };
  });
  return router;
}
