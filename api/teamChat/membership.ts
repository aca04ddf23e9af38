import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/**
 * Who is in a team room (docs/team-chat.md "Membership"): the one rule every read, write, search and MQTT
 * subscription asks. A group's room is derived from group_members (never copied, so a change of the group
 * is a change of the room at once); a created room or a direct conversation lists its members in
 * team_room_members. Either way the workspace is part of the condition: nothing of another workspace
 * ever matches.
 */
export function memberRoomCondition(alias: string, workspaceId: number, operatorId: number): { sql: string; bindings: Knex.Value[] } {
  const r = alias;
  return {
    sql: `${r}.workspace_id = ? AND (
      (${r}.kind <> 'group' AND EXISTS (SELECT 1 FROM team_room_members trm WHERE trm.room_id = ${r}.id AND trm.workspace_id = ${r}.workspace_id AND trm.operator_id = ?))
      OR (${r}.kind = 'group' AND EXISTS (SELECT 1 FROM group_members tgm WHERE tgm.workspace_id = ${r}.workspace_id AND tgm.group_id = ${r}.group_id AND tgm.operator_id = ?)))`,
    bindings: [workspaceId, operatorId, operatorId],
  };
}

/** Whether the operator is in that room of that workspace (false for a room of another workspace, or none). */
export async function isRoomMember(db: Db, workspaceId: number, operatorId: number, roomId: number): Promise<boolean> {
  const c = memberRoomCondition('r', workspaceId, operatorId);
  const row = await db('team_rooms as r').where('r.id', roomId).whereRaw(c.sql, c.bindings).first('r.id');
  return Boolean(row);
}

/** Ids of every room the operator is in. */
export async function roomIdsOf(db: Db, workspaceId: number, operatorId: number): Promise<number[]> {
  const c = memberRoomCondition('r', workspaceId, operatorId);
  const rows: { id: number }[] = await db('team_rooms as r').whereRaw(c.sql, c.bindings).orderBy('r.id').select('r.id');
  return rows.map((r) => r.id);
}

/** Operator ids of a room's members (a group room: the group's; the others: their member rows). */
export async function roomMemberIds(db: Db, workspaceId: number, room: { id: number; kind: string; groupId: number | null }): Promise<number[]> {
  const rows: { operatorId: number }[] =
    room.kind === 'group'
      ? await db('group_members').where({ workspaceId, groupId: room.groupId }).orderBy('operator_id').select('operator_id')
      : await db('team_room_members').where({ workspaceId, roomId: room.id }).orderBy('operator_id').select('operator_id');
  return rows.map((r) => r.operatorId);
}
