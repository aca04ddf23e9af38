import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

export const BOT_SESSION_STATUSES = ['active', 'finished', 'expired', 'transferred', 'canceled', 'failed'] as const;
export type BotSessionStatus = (typeof BOT_SESSION_STATUSES)[number];

/** A bot run on a conversation (at most one active per conversation); the workflow holds its state. */
export class BotSession extends BaseModel {
  static override tableName = 'bot_sessions';
  id!: number;
  workspaceId!: number;
  customerPlatformId!: number;
  botId!: number;
  callId!: number | null;
  workflowId!: string;
  status!: BotSessionStatus;
  createdAt!: Date;
  finishedAt!: Date | null;

  static override modifiers: Modifiers = {
    active(qb) {
      qb.where('bot_sessions.status', 'active');
    },
  };
}
