import type { SegmentFilters } from '../../../../api/segments/filters';

export type { SegmentFilters };

/** docs/api/inbox.md Segment: a saved inbox filter. */
export interface Segment {
  id: number;
  name: string;
  /** '#RRGGBB', an emoji, or null (SPEC §3). */
  icon: string | null;
  isPublic: boolean;
  subscribed: boolean;
  operatorId: number | null;
  inbox: 'me' | 'workspace';
  filters: Partial<SegmentFilters>;
  sort: number;
  count?: number;
}
