import type { Channel } from '../models/Channel';

/**
 * A channel as the settings and the inbox see it (docs/api/inbox.md, SPEC §3 Channel). `config` and
 * `secretHash` never leave the server; `identifier` is the public routing key (the widget's id).
 */
export function presentChannel(row: Channel) {
  return {
    id: row.id,
    channelId: row.type,
    platformId: row.platformId,
    description: row.description,
    name: row.name,
    phone: row.phone,
    status: row.status,
    statusReason: row.statusReason ?? null,
    identifier: row.identifier,
    avatar: row.avatar,
    createdAt: row.createdAt,
  };
}
export type ChannelView = ReturnType<typeof presentChannel>;
