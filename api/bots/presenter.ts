import type { Bot } from '../models/Bot';
import { DEFAULT_EXPIRE, type BotInput } from './schema';

/** The stored definition of a bot, with SPEC §9 defaults for parts a row written elsewhere may lack. */
export function botDefinition(row: Bot): Pick<BotInput, 'channels' | 'businessHours' | 'expire' | 'paths' | 'layout'> {
  const d = (row.definition ?? {}) as Partial<BotInput>;
  return {
    channels: d.channels ?? [],
    businessHours: d.businessHours ?? [],
    expire: { ...DEFAULT_EXPIRE, ...(d.expire ?? {}) },
    paths: d.paths ?? [],
    layout: d.layout ?? {},
  };
}

/** A bot as the API answers it: the editor's document plus id and timestamps (SPEC §3 Bot). */
export function presentBot(row: Bot) {
  return {
    id: row.id,
    name: row.name,
    isActive: row.isActive,
    priority: row.priority,
    userType: row.userType,
    ...botDefinition(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type BotView = ReturnType<typeof presentBot>;
