import type { AppDeps } from '../deps';
import { topics } from '../realtime/publisher';

type RealtimeDeps = Pick<AppDeps, 'publisher' | 'logger' | 'realtimeSessions'>;

/** Events of the team chat (docs/team-chat.md "Realtime"). */
export const TEAM_EVENTS = {
  /** On the room's topic: a new message (data: {roomId, message}). */
  message: 'team.message',
  /** On the room's topic: a message edited (data: {roomId, message}). */
  messageUpdated: 'team.messageUpdated',
  /** On the room's topic: a message deleted (data: {roomId, message}, without text or file). */
  messageDeleted: 'team.messageDeleted',
  /** On an operator's own topic: their list of rooms changed (added, removed, renamed, deleted, a first direct message). */
  rooms: 'team.rooms',
  /** On an operator's own topic: they read a room up to a message (their other tabs clear its badge). */
  read: 'team.read',
} as const;

/** After commit: an event to everyone subscribed to the room (its members; the broker checked each subscription). */
export async function publishToRoom(deps: RealtimeDeps, workspaceId: number, roomId: number, event: string, data: unknown): Promise<void> {
  await deps.publisher.publish(topics.teamRoom(workspaceId, roomId), event, data);
}

/** After commit: tells these operators that their list of rooms changed (they refetch it and subscribe to what is new). */
export async function tellRoomsChanged(deps: RealtimeDeps, workspaceId: number, operatorIds: Iterable<number>, roomId: number): Promise<void> {
  await Promise.all([...new Set(operatorIds)].map((operatorId) => deps.publisher.publish(topics.operator(workspaceId, operatorId), TEAM_EVENTS.rooms, { roomId })));
}

/**
 * Members who left a room (removed from it or from its group) may still be subscribed to its topic: the
 * broker stops delivering it to their sessions (the embedded broker drops the subscription and its grant,
 * the sessions and their inbox go on; an external broker ends the sessions), and a new SUBSCRIBE is checked
 * against the room's membership again (api/realtime/access.ts), so nothing more of the room reaches them.
 */
export async function cutRemovedMembers(deps: RealtimeDeps, workspaceId: number, operatorIds: Iterable<number>, roomId: number): Promise<void> {
  const sessions = deps.realtimeSessions;
  if (!sessions) return;
  const topic = topics.teamRoom(workspaceId, roomId);
  await Promise.all(
    [...new Set(operatorIds)].map((operatorId) =>
      (sessions.revokeTopics ? sessions.revokeTopics(workspaceId, operatorId, [topic]) : sessions.disconnectOperator(workspaceId, operatorId)).catch((err: unknown) => {
        deps.logger.warn({ err, workspaceId, operatorId }, 'team chat: stopping a removed member’s subscription failed');
        return 0;
      }),
    ),
  );
}

/** A group's members changed (Configurações → Grupos): its room follows, so those who left are cut and everyone concerned told. */
export async function afterGroupRoomChange(deps: RealtimeDeps & Pick<AppDeps, 'knex'>, workspaceId: number, groupId: number, change: { added: number[]; removed: number[] }): Promise<void> {
  if (!change.added.length && !change.removed.length) return;
  try {
    const room = await deps.knex('team_rooms').where({ workspaceId, groupId }).first('id');
    if (!room) return;
    await tellRoomsChanged(deps, workspaceId, [...change.added, ...change.removed], room.id);
    await cutRemovedMembers(deps, workspaceId, change.removed, room.id);
  } catch (err) {
    deps.logger.error({ err, workspaceId, groupId }, 'team chat: group room change not published');
  }
}

/** Before a group is deleted (its room goes with it): the room and who was in it, to tell them after commit. */
export async function groupRoomLeaving(db: AppDeps['knex'], workspaceId: number, groupId: number): Promise<{ roomId: number; members: number[] } | undefined> {
  const room = await db('team_rooms').where({ workspaceId, groupId }).first('id');
  if (!room) return undefined;
  const rows: { operatorId: number }[] = await db('group_members').where({ workspaceId, groupId }).select('operator_id');
  return { roomId: room.id, members: rows.map((r) => r.operatorId) };
}

/** After a group's deletion committed: its former members' lists lose the room (nothing is published on its topic any more). */
export async function afterGroupRoomDeleted(deps: RealtimeDeps, workspaceId: number, leaving: { roomId: number; members: number[] }): Promise<void> {
  try {
    await tellRoomsChanged(deps, workspaceId, leaving.members, leaving.roomId);
  } catch (err) {
    deps.logger.error({ err, workspaceId }, 'team chat: group room deletion not published');
  }
}
