import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { StoredFileRef } from '../models/StoredFile';
import { memberRoomCondition } from './membership';
import { TEAM_TEXTS, type TeamRoomKind } from './schema';

type Db = Knex | Knex.Transaction;

/** Who is asking: the team chat needs no more than this (the caller's session). */
export interface TeamViewer {
  workspaceId: number;
  operatorId: number;
  accessLevel: number;
}

export interface RoomRecord {
  id: number;
  workspaceId: number;
  kind: TeamRoomKind;
  name: string | null;
  groupId: number | null;
  directKey: string | null;
  createdBy: number | null;
  createdAt: Date;
}

/** A room as the list shows it to one member: its name, the other agent of a direct conversation, unread count and last message. */
export interface RoomListRow extends RoomRecord {
  groupName: string | null;
  groupIcon: string | null;
  otherId: number | null;
  otherName: string | null;
  otherAvatar: string | null;
  lastReadMessageId: string | number | null;
  unread: number;
  lastId: string | number | null;
  lastBody: string | null;
  lastFile: StoredFileRef | null;
  lastAuthorId: number | null;
  lastAuthorName: string | null;
  lastCreatedAt: Date | null;
  lastDeletedAt: Date | null;
}

export interface MessageRow {
  id: string | number;
  workspaceId: number;
  roomId: number;
  authorId: number | null;
  authorName: string | null;
  authorAvatar: string | null;
  body: string;
  file: StoredFileRef | null;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
}

const ROOM_COLUMNS = ['id', 'workspace_id', 'kind', 'name', 'group_id', 'direct_key', 'created_by', 'created_at'];

/** The one way to the rooms table: inside the workspace (DESIGN §2). */
export function roomsOf(db: Db, workspaceId: number): Knex.QueryBuilder {
  return db('team_rooms').where('team_rooms.workspace_id', workspaceId);
}

/** The direct conversation's key: both ids, lowest first. */
export const directKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** A room of the workspace (whether or not the caller is in it: management at level 6+), or undefined. */
export async function findRoom(db: Db, workspaceId: number, roomId: number, lock = false): Promise<RoomRecord | undefined> {
  const q = roomsOf(db, workspaceId).where('team_rooms.id', roomId);
  if (lock) q.forUpdate();
  return (await q.first(ROOM_COLUMNS.map((c) => `team_rooms.${c}`))) as RoomRecord | undefined;
}

/**
 * The rooms the viewer is in, each with what its line in the list shows. A direct conversation is listed
 * once it has a message or the viewer opened it (the other agent is not told of an empty one); asked by
 * id, a room the viewer is in is always answered.
 */
export async function listRooms(db: Db, viewer: TeamViewer, roomId?: number): Promise<RoomListRow[]> {
  const mine = memberRoomCondition('r', viewer.workspaceId, viewer.operatorId);
  const me = viewer.operatorId;
  const { rows } = await db.raw(
    `SELECT r.id, r.workspace_id, r.kind, r.name, r.group_id, r.direct_key, r.created_by, r.created_at,
            g.name AS group_name, g.icon AS group_icon,
            o.id AS other_id, o.name AS other_name, o.avatar AS other_avatar,
            rd.last_read_message_id,
            (SELECT count(*)::int FROM team_messages u
              WHERE u.workspace_id = r.workspace_id AND u.room_id = r.id AND u.id > coalesce(rd.last_read_message_id, 0)
                AND u.deleted_at IS NULL AND u.author_id IS DISTINCT FROM ?) AS unread,
            last.id AS last_id, last.body AS last_body, last.file AS last_file, last.author_id AS last_author_id,
            la.name AS last_author_name, last.created_at AS last_created_at, last.deleted_at AS last_deleted_at
       FROM team_rooms r
       LEFT JOIN groups g ON g.workspace_id = r.workspace_id AND g.id = r.group_id
       LEFT JOIN operators o ON r.kind = 'direct' AND o.id = (CASE WHEN split_part(r.direct_key, ':', 1)::int = ? THEN split_part(r.direct_key, ':', 2) ELSE split_part(r.direct_key, ':', 1) END)::int
       LEFT JOIN team_room_reads rd ON rd.room_id = r.id AND rd.operator_id = ?
       LEFT JOIN LATERAL (SELECT m.id, m.body, m.file, m.author_id, m.created_at, m.deleted_at FROM team_messages m
                           WHERE m.workspace_id = r.workspace_id AND m.room_id = r.id ORDER BY m.id DESC LIMIT 1) last ON true
       LEFT JOIN operators la ON la.id = last.author_id
      WHERE ${mine.sql}
        ${roomId ? 'AND r.id = ?' : "AND (r.kind <> 'direct' OR last.id IS NOT NULL OR r.created_by = ?)"}
      ORDER BY coalesce(last.created_at, r.created_at) DESC, r.id DESC`,
    [me, me, me, ...mine.bindings, roomId ?? me],
  );
  return (rows as Record<string, unknown>[]).map((row) => camel(row) as unknown as RoomListRow);
}

/** snake_case keys of a raw row to camelCase (db.raw bypasses the mappers' post-processing of nested rows). */
function camel(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
}

/** A room the viewer is in, or a 404 (another workspace's, a room they are not in, or none: the same answer). */
export async function findMemberRoom(db: Db, viewer: TeamViewer, roomId: number, lock = false): Promise<RoomRecord> {
  const c = memberRoomCondition('r', viewer.workspaceId, viewer.operatorId);
  const q = db('team_rooms as r').where('r.id', roomId).whereRaw(c.sql, c.bindings);
  if (lock) q.forUpdate();
  const row = (await q.first(ROOM_COLUMNS.map((col) => `r.${col}`))) as RoomRecord | undefined;
  if (!row) throw errors.notFound(TEAM_TEXTS.roomNotFound);
  return row;
}

const MESSAGE_COLUMNS = ['m.id', 'm.workspace_id', 'm.room_id', 'm.author_id', 'a.name as author_name', 'a.avatar as author_avatar', 'm.body', 'm.file', 'm.created_at', 'm.edited_at', 'm.deleted_at'];

function messagesOf(db: Db, workspaceId: number, roomId: number): Knex.QueryBuilder {
  return db('team_messages as m').leftJoin('operators as a', 'a.id', 'm.author_id').where('m.workspace_id', workspaceId).where('m.room_id', roomId);
}

/** One page of a room, newest first: the newest messages, or those before `before`; one more than asked says there are older ones. */
export async function messagePage(db: Db, room: Pick<RoomRecord, 'id' | 'workspaceId'>, q: { before?: number; limit: number }): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const query = messagesOf(db, room.workspaceId, room.id);
  if (q.before) query.where('m.id', '<', q.before);
  const rows = (await query.orderBy('m.id', 'desc').limit(q.limit + 1).select(MESSAGE_COLUMNS)) as MessageRow[];
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

/** One message of a room, or a 404. */
export async function findMessage(db: Db, room: Pick<RoomRecord, 'id' | 'workspaceId'>, messageId: number, lock = false): Promise<MessageRow> {
  const q = messagesOf(db, room.workspaceId, room.id).where('m.id', messageId);
  if (lock) q.forUpdate('m');
  const row = (await q.first(MESSAGE_COLUMNS)) as MessageRow | undefined;
  if (!row) throw errors.notFound(TEAM_TEXTS.messageNotFound);
  return row;
}

/** The newest message id of a room (0 when it has none). */
export async function newestMessageId(db: Db, room: Pick<RoomRecord, 'id' | 'workspaceId'>): Promise<number> {
  const row = await db('team_messages').where({ workspaceId: room.workspaceId, roomId: room.id }).max({ id: 'id' }).first();
  return Number(row?.id ?? 0);
}

/** Names of members for a room's detail (id, name, avatar), in name order. */
export async function operatorsByIds(db: Db, ids: number[]): Promise<{ id: number; name: string; avatar: string | null }[]> {
  if (!ids.length) return [];
  return db('operators').whereIn('id', ids).orderBy('name').orderBy('id').select('id', 'name', 'avatar');
}
