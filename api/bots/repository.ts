import type { BotDefinition } from '../models/Bot';
import type { BotReq } from './schema';

/** A validated bot as the columns of `bots`: what selection filters on stays in columns, the rest in `definition`. */
export function botColumns(bot: BotReq) {
  const definition = {
    channels: [...new Set(bot.channels)],
    businessHours: [...new Set(bot.businessHours)],
    expire: bot.expire,
    paths: bot.paths,
    layout: bot.layout,
  } satisfies BotDefinition & Record<string, unknown>;
  return { name: bot.name, isActive: bot.isActive, priority: bot.priority, userType: bot.userType, definition };
}
