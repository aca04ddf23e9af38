import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

export const BOT_USER_TYPES = ['all', 'unregistered', 'registered'] as const;
export type BotUserType = (typeof BOT_USER_TYPES)[number];

/** The editor's document; its zod schema lives with the bot area. */
export interface BotDefinition {
  channels?: number[];
  businessHours?: number[];
  expire?: { hours: number; minutes: number; message?: string } | null;
  paths?: unknown[];
  layout?: unknown;
}

export class Bot extends BaseModel {
  static override tableName = 'bots';
  static override jsonAttributes = ['definition'];
  id!: number;
  workspaceId!: number;
  name!: string;
  isActive!: boolean;
  priority!: number;
  userType!: BotUserType;
  definition!: BotDefinition;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    /** Active bots, the highest priority first (SPEC §5: the highest priority scenario runs). */
    activeByPriority(qb) {
      qb.where('bots.is_active', true).orderBy('bots.priority', 'desc').orderBy('bots.id');
    },
    /** Bots whose definition lists the channel. */
    forChannel(qb, channelId: number) {
      qb.whereRaw(`bots.definition->'channels' @> ?::jsonb`, [JSON.stringify([channelId])]);
    },
  };
}
