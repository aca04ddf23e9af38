import type { BotReq } from '../../../../api/bots/schema';

/** Types of the bot screens, apart from the HTTP client so pure modules (and their node tests) can use them. */

/**
 * A bot as GET /api/bot answers it (api/bots/presenter.ts): the schema's output, defaults filled and every
 * menu option with its guid (a file may leave them out; the schema gives them one).
 */
export type BotRow = BotReq & { id: number; createdAt: string; updatedAt: string };

/** The editable document: what POST/PUT /api/bot take. */
export type BotDoc = Omit<BotRow, 'id' | 'createdAt' | 'updatedAt'>;

export interface Choice {
  id: number;
  name: string;
}

/** Rows the editor's selects list, all from the workspace. */
export interface BotChoices {
  channels: Choice[];
  businessHours: Choice[];
  tags: Choice[];
  groups: Choice[];
  agents: Choice[];
}

export function toDoc(row: BotRow | BotDoc): BotDoc {
  return {
    name: row.name,
    isActive: row.isActive,
    priority: row.priority,
    channels: row.channels,
    businessHours: row.businessHours,
    userType: row.userType,
    expire: row.expire,
    paths: row.paths,
    layout: row.layout,
  };
}
