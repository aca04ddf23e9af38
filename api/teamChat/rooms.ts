import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { authorize, can } from '../policy/policy';
import type { Actor } from '../policy/policy';
import { directKey, findRoom, listRooms, roomsOf, type RoomRecord } from './queries';
import { roomMemberIds } from './membership';
import { presentRoom, type TeamRoomView } from './presenters';
import { cutRemovedMembers, tellRoomsChanged } from './realtime';
import { TEAM_TEXTS, type TeamDirectReq, type TeamRoomCreateReq, type TeamRoomUpdateReq } from './schema';

type RoomDeps = Pick<AppDeps, 'knex' | 'publisher' | 'logger' | 'realtimeSessions'>;

/**
 * Operators who may be put in a room: registered, active members of the workspace. Every id that is not
 * one is reported on `key` (another workspace's operator reads as not found: it is none of this one's).
 */
async function assertChatMembers(trx: Knex.Transaction, workspaceId: number, operatorIds: number[], key: string): Promise<void> {
  if (!operatorIds.length) return;
  const rows: { operatorId: number; isActive: boolean; verificationLevel: number }[] = await trx('workspace_members as wm')
    .join('operators as o', 'o.id', 'wm.operator_id')
    .where('wm.workspace_id', workspaceId)
    .whereIn('wm.operator_id', operatorIds)
    .select('wm.operator_id', 'wm.is_active', 'o.verification_level');
  const byId = new Map(rows.map((r) => [r.operatorId, r]));
  const problems = new Set<string>();
  for (const id of operatorIds) {
    const r = byId.get(id);
    if (!r) problems.add(TEAM_TEXTS.memberNotFound);
    else if (r.verificationLevel === 0) problems.add(TEAM_TEXTS.memberPending);
    else if (!r.isActive) problems.add(TEAM_TEXTS.memberInactive);
  }
  if (problems.size) throw errors.validation([{ key, descriptions: [...problems] }]);
}

const unique = (ids: number[]) => [...new Set(ids)];

/** The room as the viewer's list shows it (they may not be in it: a manager changing a room they left). */
async function viewOf(db: Knex, actor: Actor, room: RoomRecord): Promise<TeamRoomView> {
  const [row] = await listRooms(db, actor, room.id);
  const canManage = can(actor, 'teamRooms.manage');
  if (row) return presentRoom(row, canManage);
  return {
    id: room.id,
    kind: room.kind,
    name: room.name ?? '',
    groupId: room.groupId,
    icon: null,
    other: null,
    unread: 0,
    lastReadMessageId: 0,
    lastMessage: null,
    createdAt: new Date(room.createdAt).toISOString(),
    canManage: room.kind === 'room' && canManage,
  };
}

/** POST /team/rooms (level 6+): a named room with the chosen members and its creator. */
export async function createRoom(deps: RoomDeps, actor: Actor, input: TeamRoomCreateReq): Promise<TeamRoomView> {
  authorize(actor, 'teamRooms.manage');
  const members = unique([actor.operatorId, ...input.members]);
  const room = await deps.knex.transaction(async (trx) => {
    await assertChatMembers(trx, actor.workspaceId, members, 'members');
    const [row] = await trx('team_rooms').insert({ workspaceId: actor.workspaceId, kind: 'room', name: input.name, createdBy: actor.operatorId }).returning('id');
    await trx('team_room_members').insert(members.map((operatorId) => ({ workspaceId: actor.workspaceId, roomId: row.id, operatorId })));
    return (await findRoom(trx, actor.workspaceId, row.id))!;
  });
  await tellRoomsChanged(deps, actor.workspaceId, members, room.id);
  return viewOf(deps.knex, actor, room);
}

/** A created room of the workspace, locked, for a manager; a group's room or a direct conversation is not changed here. */
async function lockManagedRoom(trx: Knex.Transaction, actor: Actor, roomId: number): Promise<RoomRecord> {
  authorize(actor, 'teamRooms.manage');
  const room = await findRoom(trx, actor.workspaceId, roomId, true);
  if (!room) throw errors.notFound(TEAM_TEXTS.roomNotFound);
  if (room.kind !== 'room') throw errors.conflict(TEAM_TEXTS.notRoom);
  return room;
}

/** PUT /team/rooms/{id} (level 6+): a new name, and/or the whole set of members (those left out are removed). */
export async function updateRoom(deps: RoomDeps, actor: Actor, roomId: number, input: TeamRoomUpdateReq): Promise<TeamRoomView> {
  const { room, before, after } = await deps.knex.transaction(async (trx) => {
    const locked = await lockManagedRoom(trx, actor, roomId);
    const previous = await roomMemberIds(trx, actor.workspaceId, locked);
    let next = previous;
    if (input.members) {
      next = unique(input.members);
      await assertChatMembers(trx, actor.workspaceId, next.filter((id) => !previous.includes(id)), 'members');
      await trx('team_room_members').where({ workspaceId: actor.workspaceId, roomId }).whereNotIn('operator_id', next).delete();
      const added = next.filter((id) => !previous.includes(id));
      if (added.length) await trx('team_room_members').insert(added.map((operatorId) => ({ workspaceId: actor.workspaceId, roomId, operatorId })));
    }
    if (input.name !== undefined) await trx('team_rooms').where({ id: roomId }).update({ name: input.name, updatedAt: trx.fn.now() });
    return { room: (await findRoom(trx, actor.workspaceId, roomId))!, before: previous, after: next };
  });
  const removed = before.filter((id) => !after.includes(id));
  await tellRoomsChanged(deps, actor.workspaceId, [...before, ...after], roomId);
  await cutRemovedMembers(deps, actor.workspaceId, removed, roomId);
  return viewOf(deps.knex, actor, room);
}

/** DELETE /team/rooms/{id} (level 6+): the room and its messages. */
export async function deleteRoom(deps: RoomDeps, actor: Actor, roomId: number): Promise<void> {
  const members = await deps.knex.transaction(async (trx) => {
    const room = await lockManagedRoom(trx, actor, roomId);
    const ids = await roomMemberIds(trx, actor.workspaceId, room);
    await roomsOf(trx, actor.workspaceId).where('team_rooms.id', roomId).delete();
    return ids;
  });
  await tellRoomsChanged(deps, actor.workspaceId, members, roomId);
}

/**
 * POST /team/direct: the conversation of the caller with another agent of the workspace, created the first
 * time either opens it (one per pair: the unique direct key), at every level.
 */
export async function openDirect(deps: RoomDeps, actor: Actor, input: TeamDirectReq): Promise<{ room: TeamRoomView; created: boolean }> {
  if (input.operatorId === actor.operatorId) throw errors.field('operatorId', TEAM_TEXTS.directSelf);
  const key = directKey(actor.operatorId, input.operatorId);
  const { room, created } = await deps.knex.transaction(async (trx) => {
    await assertChatMembers(trx, actor.workspaceId, [input.operatorId], 'operatorId');
    const inserted = await trx('team_rooms')
      .insert({ workspaceId: actor.workspaceId, kind: 'direct', directKey: key, createdBy: actor.operatorId })
      .onConflict(trx.raw('(workspace_id, direct_key) WHERE direct_key IS NOT NULL'))
      .ignore()
      .returning('id');
    const row = await roomsOf(trx, actor.workspaceId).where('team_rooms.direct_key', key).first('team_rooms.id');
    // Both are (again) in it: a member who left the workspace and came back finds the conversation.
    await trx('team_room_members')
      .insert([actor.operatorId, input.operatorId].map((operatorId) => ({ workspaceId: actor.workspaceId, roomId: row.id, operatorId })))
      .onConflict(['roomId', 'operatorId'])
      .ignore();
    return { room: (await findRoom(trx, actor.workspaceId, row.id))!, created: inserted.length > 0 };
  });
  return { room: await viewOf(deps.knex, actor, room), created };
}
