import type { Config } from '../config';
import { signedDownloadUrl } from '../assets/signedUrl';
import type { MentionView, TeamMessageView, TeamRoomView } from './views';
import type { MessageRow, RoomListRow } from './queries';
import { EDIT_WINDOW_MS } from './schema';

export type { TeamMessageView, TeamRoomView };

const iso = (d: Date | string) => new Date(d).toISOString();

/** The list's one-line preview of a message. */
export function previewOf(body: string, file: { fileName: string } | null): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text) return text.slice(0, 140);
  return file ? `📎 ${file.fileName}` : '';
}

export function presentRoom(row: RoomListRow, canManageRooms: boolean): TeamRoomView {
  const lastDeleted = row.lastDeletedAt !== null && row.lastDeletedAt !== undefined;
  return {
    id: row.id,
    kind: row.kind,
    name: row.kind === 'group' ? (row.groupName ?? '') : row.kind === 'direct' ? (row.otherName ?? '') : (row.name ?? ''),
    groupId: row.groupId,
    icon: row.kind === 'group' ? row.groupIcon : null,
    other: row.kind === 'direct' && row.otherId !== null ? { id: row.otherId, name: row.otherName ?? '', avatar: row.otherAvatar } : null,
    unread: Number(row.unread ?? 0),
    lastReadMessageId: Number(row.lastReadMessageId ?? 0),
    lastMessage:
      row.lastId === null || row.lastId === undefined
        ? null
        : {
            id: Number(row.lastId),
            authorId: row.lastAuthorId,
            authorName: row.lastAuthorName,
            preview: lastDeleted ? '' : previewOf(row.lastBody ?? '', row.lastFile),
            createdAt: iso(row.lastCreatedAt!),
            isDeleted: lastDeleted,
          },
    createdAt: iso(row.createdAt),
    canManage: row.kind === 'room' && canManageRooms,
  };
}

export function presentMessage(config: Pick<Config, 'jwtSecret' | 'publicUrl'>, row: MessageRow, mentions?: MentionView[]): TeamMessageView {
  const deleted = row.deletedAt !== null && row.deletedAt !== undefined;
  const createdAt = new Date(row.createdAt);
  return {
    id: Number(row.id),
    roomId: row.roomId,
    author: row.authorId === null ? null : { id: row.authorId, name: row.authorName ?? '', avatar: row.authorAvatar },
    body: deleted ? '' : row.body,
    file: deleted || !row.file ? null : { key: row.file.key, fileName: row.file.fileName, mime: row.file.mime, size: Number(row.file.size), url: signedDownloadUrl(config, row.file.key) },
    createdAt: createdAt.toISOString(),
    editedAt: row.editedAt ? iso(row.editedAt) : null,
    deletedAt: deleted ? iso(row.deletedAt!) : null,
    isDeleted: deleted,
    editableUntil: new Date(createdAt.getTime() + EDIT_WINDOW_MS).toISOString(),
    ...(mentions ? { mentions: deleted ? [] : mentions } : {}),
  };
}
