/** Shapes of the kanban calls (docs/kanban.md) as the UI reads them; no run-time imports, so pure modules and their tests can use them. */
import type { KanbanGrouping } from '../../../api/kanban/schema';
import type { Conversation } from '../inbox/types';

export interface ColumnPage {
  data: Conversation[];
  /** Capped like the inbox's counts; null where the server does not count (tag columns). */
  matchCount: number | null;
  nextCursor: string | null;
}

export interface BoardColumn extends ColumnPage {
  key: string;
  name: string | null;
  color: string | null;
}

export interface Board {
  groupBy: KanbanGrouping;
  funnelId: number | null;
  columns: BoardColumn[];
}

export interface Stage {
  id: number;
  name: string;
  color: string;
  position: number;
}

export interface Funnel {
  id: number;
  name: string;
  sort: number;
  stages: Stage[];
}

/** What a board shows: its grouping (with the funnel for 'stage') and the inbox's filters. */
export interface BoardParams {
  groupBy: KanbanGrouping;
  funnelId: number | null;
  segment: string;
  query: string;
}
