import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Bot } from '../models/Bot';
import { BotSchema, BotUpdateSchema, type BotReq } from './schema';
import { assertBotReferences } from './references';
import { botColumns } from './repository';
import { presentBot } from './presenter';

/**
 * /api/bot (SPEC §7): list in both dialects, get, save (POST; with an id it updates), PUT with the whole
 * bot (the list's active toggle), delete by id. Level 6+ reads and writes (SPEC §6). The body is checked
 * with the editor's schema, then every row it names is looked up inside the workspace.
 */
export function botsRouter(deps: AppDeps) {
  return resourceRouter<Bot, BotReq, BotReq>(deps, {
    path: '/bot',
    resource: 'bot',
    model: Bot,
    createSchema: BotSchema,
    updateSchema: BotUpdateSchema,
    readAction: 'bots.manage',
    writeAction: 'bots.manage',
    list: {
      sortable: ['name', 'priority', 'isActive', 'createdAt', 'updatedAt', 'id'],
      defaultSort: { field: 'priority', order: 'desc' },
      filterable: ['isActive', 'userType'],
      searchColumns: ['name'],
      maxLimit: 1000,
    },
    present: presentBot,
    async toColumns(input, actor, trx, mode) {
      await assertBotReferences(trx, actor.workspaceId, input);
      // The insert answers only what it wrote: stamping here lets the created bot come back whole.
      return mode === 'create' ? { ...botColumns(input), createdAt: new Date(), updatedAt: new Date() } : botColumns(input);
    },
  });
}
