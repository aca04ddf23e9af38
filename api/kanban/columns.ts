import type { Knex } from 'knex';
import { errors } from '../http/errors';
import { BUCKET, andAll } from '../inbox/inboxCounts';
import type { SegmentScope } from '../inbox/segmentScope';
import type { SqlCondition } from '../policy/conversations';
import { findFunnel } from './funnels';
import { MAX_TAG_COLUMNS, NONE_COLUMN, STATUS_COLUMNS, type KanbanGrouping } from './schema';

type Db = Knex | Knex.Transaction;

/** One column of a board as the API names it; the UI words the fixed ones (status, none). */
export interface ColumnDef {
  key: string;
  /** The tag's, group's or stage's name; null for the fixed columns. */
  name: string | null;
  color: string | null;
}

/**
 * What one column selects, on top of the board's segment scope (api/inbox/segmentScope.ts). `finished`
 * replaces the segment's open/resolved choice for the status columns only; `bucket` is the column as a
 * condition on the count buckets when it can be one, so its count costs what the inbox's does.
 */
interface ColumnCondition {
  finished?: boolean;
  apply(qb: Knex.QueryBuilder): void;
  bucket: SqlCondition | null;
}

export interface Board {
  grouping: KanbanGrouping;
  funnelId: number | null;
  columns: ColumnDef[];
  /** The ids of the funnel's stages (grouping 'stage'): 'none' is every conversation outside them. */
  stageIds: number[];
}

/** The columns of a board, in their order: the fixed 'none' column first, then the workspace's rows. */
export async function loadBoard(db: Db, workspaceId: number, grouping: KanbanGrouping, funnelId: number | null | undefined): Promise<Board> {
  const none: ColumnDef = { key: NONE_COLUMN, name: null, color: null };
  switch (grouping) {
    case 'status':
      return { grouping, funnelId: null, stageIds: [], columns: STATUS_COLUMNS.map((key) => ({ key, name: null, color: null })) };
    case 'tag': {
      const tags: { id: number; name: string; color: string }[] = await db('labels')
        .where({ workspaceId })
        .orderBy([{ column: 'sort' }, { column: 'id' }])
        .limit(MAX_TAG_COLUMNS)
        .select('id', 'name', 'color');
      return { grouping, funnelId: null, stageIds: [], columns: [none, ...tags.map((t) => ({ key: String(t.id), name: t.name, color: t.color }))] };
    }
    case 'group': {
      const groups: { id: number; name: string; icon: string | null }[] = await db('groups')
        .where({ workspaceId })
        .orderBy([{ column: 'sort' }, { column: 'id' }])
        .select('id', 'name', 'icon');
      return { grouping, funnelId: null, stageIds: [], columns: [none, ...groups.map((g) => ({ key: String(g.id), name: g.name, color: g.icon }))] };
    }
    case 'stage': {
      if (!funnelId) throw errors.field('funnelId', 'Escolha o funil.');
      const funnel = await findFunnel(db, { workspaceId }, funnelId);
      return {
        grouping,
        funnelId: funnel.id,
        stageIds: funnel.stages.map((s) => s.id),
        columns: [none, ...funnel.stages.map((s) => ({ key: String(s.id), name: s.name, color: s.color }))],
      };
    }
  }
}

/** The board's column `key`, or a field error on `field` when the board has no such column. */
export function columnOf(board: Board, key: string, field = 'column'): ColumnDef {
  const column = board.columns.find((c) => c.key === key);
  if (!column) throw errors.field(field, 'Coluna não encontrada neste quadro.');
  return column;
}

function condition(board: Board, key: string): ColumnCondition {
  const id = Number(key);
  switch (board.grouping) {
    case 'status':
      if (key === 'waiting') return { finished: false, apply: (qb) => void qb.whereNull('cp.operator_id'), bucket: { sql: `${BUCKET}.operator_id IS NULL`, bindings: [] } };
      if (key === 'active') return { finished: false, apply: (qb) => void qb.whereNotNull('cp.operator_id'), bucket: { sql: `${BUCKET}.operator_id IS NOT NULL`, bindings: [] } };
      return { finished: true, apply: () => undefined, bucket: null };
    case 'group':
      if (key === NONE_COLUMN) return { apply: (qb) => void qb.whereNull('cp.group_id'), bucket: { sql: `${BUCKET}.group_id IS NULL`, bindings: [] } };
      return { apply: (qb) => void qb.where('cp.group_id', id), bucket: { sql: `${BUCKET}.group_id = ?`, bindings: [id] } };
    case 'tag':
      // The tags of the current call, as the inbox shows them and its tag filter reads them.
      if (key === NONE_COLUMN) return { apply: (qb) => void qb.whereNotExists((s) => void s.select(1).from('call_labels as cl').whereRaw('cl.call_id = cp.current_call_id')), bucket: null };
      return { apply: (qb) => void qb.whereExists((s) => void s.select(1).from('call_labels as cl').whereRaw('cl.call_id = cp.current_call_id').where('cl.label_id', id)), bucket: null };
    case 'stage':
      if (key === NONE_COLUMN) {
        const stages = board.stageIds;
        return { apply: (qb) => void qb.where((w) => void w.whereNull('cp.stage_id').orWhereRaw('cp.stage_id <> ALL(?::int[])', [stages])), bucket: null };
      }
      return { apply: (qb) => void qb.where('cp.stage_id', id), bucket: null };
  }
}

/**
 * The board's segment scope narrowed to one column: the inbox's list and count machinery
 * (api/inbox/listConversations.ts) then pages it with the viewer's visibility arms, like any inbox list.
 */
export function columnScope(board: Board, base: SegmentScope, key: string): SegmentScope {
  const c = condition(board, key);
  const finished = c.finished ?? base.finished;
  // The buckets hold open conversations only: a column of resolved ones, or a scope that is not all open, counts rows.
  const buckets = finished === false && base.finished === false && base.buckets && c.bucket ? andAll([base.buckets, c.bucket]) : null;
  return {
    finished,
    apply: (qb) => {
      base.apply(qb);
      c.apply(qb);
      return qb;
    },
    ownOnly: base.ownOnly,
    buckets,
  };
}

/** Whether a column's count is cheap enough to give: tag columns would probe every open conversation for a rare tag. */
export function countsColumn(board: Board): boolean {
  return board.grouping !== 'tag';
}
