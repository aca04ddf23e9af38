import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { Actor } from '../policy/policy';
import type { StoredFileRef } from '../models/StoredFile';
import { findMemberRoom, findMessage, newestMessageId, type MessageRow, type RoomRecord } from './queries';
import { presentMessage, type TeamMessageView } from './presenters';
import { publishToRoom, TEAM_EVENTS, tellRoomsChanged } from './realtime';
import { topics } from '../realtime/publisher';
import { EDIT_WINDOW_MS, TEAM_TEXTS, type TeamMessageEditReq, type TeamMessageReq, type TeamReadReq } from './schema';

type MessageDeps = Pick<AppDeps, 'knex' | 'publisher' | 'logger' | 'config' | 'realtimeSessions' | 'clock'>;

const nowOf = (deps: Pick<AppDeps, 'clock'>) => new Date(deps.clock ? deps.clock() : Date.now());

/** Moves the member's read marker forward to `messageId` (never back). */
async function readUpTo(db: Knex | Knex.Transaction, room: Pick<RoomRecord, 'id' | 'workspaceId'>, operatorId: number, messageId: number): Promise<void> {
  await db.raw(
    `INSERT INTO team_room_reads (workspace_id, room_id, operator_id, last_read_message_id, updated_at) VALUES (?, ?, ?, ?, now())
     ON CONFLICT (room_id, operator_id) DO UPDATE SET last_read_message_id = GREATEST(team_room_reads.last_read_message_id, EXCLUDED.last_read_message_id), updated_at = now()`,
    [room.workspaceId, room.id, operatorId, messageId],
  );
}

/** A file the author uploaded to this workspace (POST /assets/upload, 16 MB at most); any other key is not found. */
async function ownUpload(trx: Knex.Transaction, actor: Actor, key: string): Promise<StoredFileRef> {
  const row = await trx('stored_files').where({ workspaceId: actor.workspaceId, key, operatorId: actor.operatorId }).first('key', 'file_name', 'mime', 'size');
  if (!row) throw errors.field('file', TEAM_TEXTS.fileNotFound);
  return { key: row.key, fileName: row.fileName, mime: row.mime, size: Number(row.size) };
}

/**
 * POST /team/rooms/{id}/messages: a member writes in a room they are in. The message counts as read by its
 * author; after commit it goes to the room's topic, and the first message of a direct conversation tells
 * the other agent their list has a new room.
 */
export async function postMessage(deps: MessageDeps, actor: Actor, roomId: number, input: TeamMessageReq): Promise<TeamMessageView> {
  const now = nowOf(deps);
  const { row, room, first, others } = await deps.knex.transaction(async (trx) => {
    const room = await findMemberRoom(trx, actor, roomId);
    let others: number[] = [];
    if (room.kind === 'direct') {
      others = (await trx('team_room_members').where({ workspaceId: actor.workspaceId, roomId }).whereNot('operator_id', actor.operatorId).select('operator_id')).map((r: { operatorId: number }) => r.operatorId);
      if (!others.length) throw errors.conflict(TEAM_TEXTS.directGone);
    }
    const file = input.file ? await ownUpload(trx, actor, input.file.key) : null;
    const first = room.kind === 'direct' && !(await trx('team_messages').where({ workspaceId: actor.workspaceId, roomId }).first('id'));
    const [inserted] = await trx('team_messages')
      .insert({ workspaceId: actor.workspaceId, roomId, authorId: actor.operatorId, body: input.body, file: file ? JSON.stringify(file) : null, createdAt: now })
      .returning('id');
    await readUpTo(trx, room, actor.operatorId, Number(inserted.id));
    return { row: await findMessage(trx, room, Number(inserted.id)), room, first, others };
  });
  const view = presentMessage(deps.config, row);
  await publishToRoom(deps, actor.workspaceId, room.id, TEAM_EVENTS.message, { roomId: room.id, message: view });
  if (first) await tellRoomsChanged(deps, actor.workspaceId, others, room.id);
  return view;
}

/** The author's own message, still within its window and not deleted: what edit and delete may change. */
async function lockOwnMessage(trx: Knex.Transaction, actor: Actor, roomId: number, messageId: number, now: Date): Promise<{ room: RoomRecord; row: MessageRow }> {
  const room = await findMemberRoom(trx, actor, roomId);
  const row = await findMessage(trx, room, messageId, true);
  if (row.authorId !== actor.operatorId) throw errors.forbidden(TEAM_TEXTS.notAuthor);
  if (row.deletedAt) throw errors.conflict(TEAM_TEXTS.deleted);
  if (now.getTime() - new Date(row.createdAt).getTime() > EDIT_WINDOW_MS) throw errors.conflict(TEAM_TEXTS.windowClosed);
  return { room, row };
}

/** PUT /team/rooms/{id}/messages/{messageId}: its author changes the text within 15 minutes of sending it. */
export async function editMessage(deps: MessageDeps, actor: Actor, roomId: number, messageId: number, input: TeamMessageEditReq): Promise<TeamMessageView> {
  const now = nowOf(deps);
  const row = await deps.knex.transaction(async (trx) => {
    const { room, row } = await lockOwnMessage(trx, actor, roomId, messageId, now);
    if (!input.body.trim() && !row.file) throw errors.field('body', TEAM_TEXTS.empty);
    await trx('team_messages').where({ workspaceId: actor.workspaceId, id: messageId }).update({ body: input.body, editedAt: now });
    return findMessage(trx, room, messageId);
  });
  const view = presentMessage(deps.config, row);
  await publishToRoom(deps, actor.workspaceId, roomId, TEAM_EVENTS.messageUpdated, { roomId, message: view });
  return view;
}

/** DELETE /team/rooms/{id}/messages/{messageId}: its author deletes it within 15 minutes; its place shows 'Mensagem apagada'. */
export async function deleteMessage(deps: MessageDeps, actor: Actor, roomId: number, messageId: number): Promise<TeamMessageView> {
  const now = nowOf(deps);
  const row = await deps.knex.transaction(async (trx) => {
    const { room } = await lockOwnMessage(trx, actor, roomId, messageId, now);
    await trx('team_messages').where({ workspaceId: actor.workspaceId, id: messageId }).update({ body: '', file: null, deletedAt: now });
    return findMessage(trx, room, messageId);
  });
  const view = presentMessage(deps.config, row);
  await publishToRoom(deps, actor.workspaceId, roomId, TEAM_EVENTS.messageDeleted, { roomId, message: view });
  return view;
}

/** POST /team/rooms/{id}/read: the caller has read the room up to a message (by default its newest); their other tabs are told. */
export async function markRead(deps: MessageDeps, actor: Actor, roomId: number, input: TeamReadReq): Promise<{ roomId: number; lastReadMessageId: number }> {
  const lastReadMessageId = await deps.knex.transaction(async (trx) => {
    const room = await findMemberRoom(trx, actor, roomId);
    const newest = await newestMessageId(trx, room);
    const upTo = Math.min(input.messageId ?? newest, newest);
    if (upTo > 0) await readUpTo(trx, room, actor.operatorId, upTo);
    const marker = await trx('team_room_reads').where({ roomId, operatorId: actor.operatorId }).first('last_read_message_id');
    return Number(marker?.lastReadMessageId ?? 0);
  });
  const data = { roomId, lastReadMessageId };
  await deps.publisher.publish(topics.operator(actor.workspaceId, actor.operatorId), TEAM_EVENTS.read, data);
  return data;
}
