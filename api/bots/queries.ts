import type { Knex } from 'knex';
import type { BotPath } from './schema';

type Db = Knex | Knex.Transaction;

export type BotUserType = 'all' | 'unregistered' | 'registered';

export interface BotExpire {
  enabled: boolean;
  hours: number;
  minutes: number;
  message: string;
}

/** The plain columns of a `bots` row. */
interface BotColumns {
  id: number;
  workspaceId: number;
  name: string;
  isActive: boolean;
  priority: number;
  userType: BotUserType;
  updatedAt: Date;
}

/** A `bots` row with its `definition` unpacked (columns + jsonb, see migration 20261122100200). */
export interface BotRecord extends BotColumns {
  channels: number[];
  businessHours: number[];
  expire: BotExpire;
  paths: BotPath[];
  layout: Record<string, { x: number; y: number }>;
}

const COLUMNS = ['id', 'workspace_id', 'name', 'is_active', 'priority', 'user_type', 'definition', 'updated_at'];

interface BotRow extends BotColumns {
  definition: {
    channels?: number[];
    businessHours?: number[];
    expire?: Partial<BotExpire> | null;
    paths?: BotPath[];
    layout?: Record<string, { x: number; y: number }>;
  } | null;
}

function toRecord(row: BotRow): BotRecord {
  const d = row.definition ?? {};
  const e = d.expire ?? {};
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    isActive: row.isActive,
    priority: row.priority,
    userType: row.userType,
    channels: d.channels ?? [],
    businessHours: d.businessHours ?? [],
    // Rows written before `enabled` existed expire when they name a time (SPEC §5 reads as always on).
    expire: { enabled: e.enabled ?? false, hours: e.hours ?? 0, minutes: e.minutes ?? 1, message: e.message ?? '' },
    paths: d.paths ?? [],
    layout: d.layout ?? {},
    updatedAt: row.updatedAt,
  };
}

/**
 * One bot of the workspace, or undefined (another workspace's id too). Shared by the bot runtime and the
 * bot CRUD (api/bots/router.ts may reuse it): the definition comes back unpacked as a BotRecord.
 */
export async function loadBot(db: Db, workspaceId: number, id: number): Promise<BotRecord | undefined> {
  const row: BotRow | undefined = await db('bots').where({ workspaceId, id }).first(COLUMNS);
  return row && toRecord(row);
}

/**
 * Active bots of the workspace whose channel list names `channelId`, the highest priority first and the
 * lowest id first among equals (the order selection tries them in; bots_workspace_active_idx).
 */
export async function activeBotsForChannel(db: Db, workspaceId: number, channelId: number): Promise<BotRecord[]> {
  const rows: BotRow[] = await db('bots')
    .where({ workspaceId, isActive: true })
    .whereRaw(`definition->'channels' @> ?::jsonb`, [JSON.stringify([channelId])])
    .orderBy([{ column: 'priority', order: 'desc' }, { column: 'id', order: 'asc' }])
    .select(COLUMNS);
  return rows.map(toRecord);
}

/** Active bots of the workspace for the inbox's bot menu: id and name, by name. */
export async function activeBotNames(db: Db, workspaceId: number): Promise<{ id: number; name: string }[]> {
  return db('bots').where({ workspaceId, isActive: true }).orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name');
}

/** The version a session runs: the bot's last save, to the millisecond. */
export function botVersion(bot: Pick<BotRecord, 'updatedAt'>): string {
  return new Date(bot.updatedAt).toISOString();
}
