import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { manyToMany } from './relations';
import { bySort, linkedToOperator } from './modifiers';
import { Operator } from './Operator';

export const SEGMENT_INBOXES = ['me', 'workspace'] as const;
export type SegmentInbox = (typeof SEGMENT_INBOXES)[number];

/** SPEC §3 segment filters. */
export interface SegmentFilters {
  my?: boolean;
  assigned?: boolean;
  open?: boolean;
  starred?: boolean;
  channels?: number[];
  groups?: number[];
  agents?: number[];
  tags?: number[];
  customerProps?: { property: string; value?: string } | null;
}

/** A saved inbox filter; subscriptions (segment_subscriptions) put it in an operator's sidebar. */
export class Segment extends BaseModel {
  static override tableName = 'segments';
  static override jsonAttributes = ['filters'];
  id!: number;
  workspaceId!: number;
  /** Owner; null once they left the workspace. */
  operatorId!: number | null;
  name!: string;
  icon!: string | null;
  isPublic!: boolean;
  inbox!: SegmentInbox;
  filters!: SegmentFilters;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
  subscribers?: Operator[];

  static override relationMappings = (): RelationMappings => ({
    subscribers: manyToMany(Operator, 'segments.id', ['segment_subscriptions.segment_id', 'segment_subscriptions.operator_id'], 'operators.id'),
  });

  static override modifiers: Modifiers = {
    /** SPEC §6: private filters are visible to their creator, public ones to everyone. */
    visibleTo(qb, operatorId: number) {
      qb.where((w) => {
        w.where('segments.is_public', true).orWhere('segments.operator_id', operatorId);
      });
    },
    subscribedBy: linkedToOperator('segments', { table: 'segment_subscriptions', column: 'segment_id' }),
    sorted: bySort('segments'),
  };
}
