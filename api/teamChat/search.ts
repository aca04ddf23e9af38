import type { Knex } from 'knex';
import { matchingWords, snippetParts } from '../inbox/search';
import type { TeamSearchHit } from './views';
import { memberRoomCondition } from './membership';
import { listRooms, type TeamViewer } from './queries';
import { presentRoom } from './presenters';
import { TEAM_SEARCH_PAGE_SIZE, type TeamSearchQuery } from './schema';

export type { TeamSearchHit };

/**
 * GET /team/search (docs/team-chat.md "Search"): messages of the rooms the caller is in now (never of a room
 * they left, nor of another workspace), matched like the conversations' search (docs/search.md): full-text
 * in `balcao_pt` (Portuguese stemming, accents and case folded), the query read by websearch_to_tsquery;
 * newest first, deleted messages never. The snippet marks the matched words as written.
 */
export async function searchTeam(db: Knex, viewer: TeamViewer, input: TeamSearchQuery): Promise<{ data: TeamSearchHit[]; hasMore: boolean }> {
  const mine = memberRoomCondition('r', viewer.workspaceId, viewer.operatorId);
  const offset = (input.page - 1) * TEAM_SEARCH_PAGE_SIZE;
  const { rows } = await db.raw(
    `SELECT m.id, m.room_id, m.body, m.created_at, m.author_id, a.name AS author_name
       FROM team_messages m
       JOIN team_rooms r ON r.id = m.room_id AND r.workspace_id = m.workspace_id
       LEFT JOIN operators a ON a.id = m.author_id
      WHERE m.workspace_id = ? AND m.deleted_at IS NULL
        AND to_tsvector('balcao_pt', m.body) @@ websearch_to_tsquery('balcao_pt', ?)
        AND ${mine.sql}
        ${input.roomId ? 'AND r.id = ?' : ''}
      ORDER BY m.id DESC LIMIT ? OFFSET ?`,
    [viewer.workspaceId, input.q, ...mine.bindings, ...(input.roomId ? [input.roomId] : []), TEAM_SEARCH_PAGE_SIZE + 1, offset],
  );
  const hits = (rows as { id: string; room_id: number; body: string; created_at: Date; author_id: number | null; author_name: string | null }[]).slice(0, TEAM_SEARCH_PAGE_SIZE);
  const rooms = new Map((await listRooms(db, viewer)).map((r) => [r.id, presentRoom(r, false)]));
  // A direct conversation the viewer never opened and that has no message is not in the list; a hit means it has one.
  const matches = await matchingWords(db, hits.map((h) => h.body), input.q);
  return {
    data: hits.map((h) => {
      const room = rooms.get(h.room_id);
      return {
        id: Number(h.id),
        roomId: h.room_id,
        room: { id: h.room_id, kind: room?.kind ?? 'room', name: room?.name ?? '' },
        author: h.author_id === null ? null : { id: h.author_id, name: h.author_name ?? '' },
        createdAt: new Date(h.created_at).toISOString(),
        snippet: snippetParts(h.body, matches),
      };
    }),
    hasMore: rows.length > TEAM_SEARCH_PAGE_SIZE,
  };
}
