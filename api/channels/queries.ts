import type { Knex } from 'knex';
import { Channel, type ChannelType } from '../models/Channel';
import { scoped } from '../db/scope';
import { likePattern, type ListQuery, type ListResult } from '../http/listQuery';
import type { Scope } from '../db/scope';

/** Sort keys of GET /integrations/channel, mapped to columns. */
export const CHANNEL_SORT_COLUMNS = {
  id: 'channels.id',
  sort: 'channels.sort',
  description: 'channels.description',
  name: 'channels.name',
  channelId: 'channels.type',
  createdAt: 'channels.created_at',
} as const;
export type ChannelSortKey = keyof typeof CHANNEL_SORT_COLUMNS;

export async function listChannels(scope: Scope, q: ListQuery): Promise<ListResult<Channel>> {
  const filtered = scoped(Channel, scope);
  if (q.ids) filtered.whereIn('channels.id', q.ids);
  const type = q.filter.channelId;
  if (type !== undefined) filtered.whereIn('channels.type', (Array.isArray(type) ? type : [type]).map(String));
  if (q.query) {
    const pattern = likePattern(q.query);
    filtered.where((w) => {
      w.where('channels.description', 'ilike', pattern).orWhere('channels.name', 'ilike', pattern);
    });
  }
  const column = CHANNEL_SORT_COLUMNS[q.sort.field as ChannelSortKey];
  const [rows, matchCount, totalCount] = await Promise.all([
    filtered.clone().orderBy(column, q.sort.order).orderBy('channels.id', q.sort.order).limit(q.limit).offset(q.offset),
    filtered.clone().resultSize(),
    scoped(Channel, scope).resultSize(),
  ]);
  return { rows: rows as Channel[], matchCount, totalCount };
}

/** A channel of this type in the caller's workspace; another workspace's id or another type is a miss. */
export async function findChannel(scope: Scope, type: ChannelType, id: number, trx?: Knex.Transaction): Promise<Channel | undefined> {
  return (await scoped(Channel, scope, trx).where('channels.type', type).findById(id)) as Channel | undefined;
}

/** Every channel of one type in the caller's workspace, oldest first (GET /integrations/facebook). */
export async function channelsOfType(scope: Scope, type: ChannelType): Promise<Channel[]> {
  return (await scoped(Channel, scope).where('channels.type', type).orderBy('channels.id')) as Channel[];
}
