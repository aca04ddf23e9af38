import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Plugin } from '../models/Plugin';
import { errors } from '../http/errors';
import { validateUserUrl } from '../http/guardedFetch';
import { loopbackAllowedForTests } from './endpoint';
import { PluginCreateSchema, PluginUpdateSchema, type PluginCreateReq, type PluginUpdateReq } from './schema';

export function presentPlugin(row: Plugin) {
  return { id: row.id, name: row.name, endpoint: row.endpoint, dev: row.dev, authSecret: row.authSecret, sort: row.sort, createdAt: row.createdAt };
}

const newAuthSecret = () => randomBytes(24).toString('base64url');

/**
 * Plugins at /api/plugin (SPEC §2/§7): every level reads them because the inbox loads each one in its
 * right panel with auth_secret; level 6+ writes. The secret is generated here, never chosen by a client.
 */
export function pluginsRouter(deps: AppDeps) {
  return resourceRouter<Plugin, PluginCreateReq, PluginUpdateReq>(deps, {
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
    async toColumns(input, _actor, _trx, mode) {
      const { regenerateSecret, ...columns } = input as PluginUpdateReq;
      // The schema's literal check runs in the browser too; here the name is also resolved, so a public
      // name pointing at a private address is refused as well.
      if (columns.endpoint !== undefined) {
        const reason = await validateUserUrl(columns.endpoint, { allowLoopbackForTests: loopbackAllowedForTests() });
        if (reason) throw errors.field('endpoint', reason);
      }
      if (mode === 'create' || regenerateSecret) return { ...columns, authSecret: newAuthSecret() };
      return columns;
    },
  });
}
