import type { SegmentWithSubscription } from './queries';

/** docs/api/inbox.md Segment. */
export function presentSegment(row: SegmentWithSubscription) {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    isPublic: row.isPublic,
    subscribed: Boolean(row.subscribed),
    operatorId: row.operatorId,
    inbox: row.inbox,
    filters: row.filters,
    sort: row.sort,
  };
}
