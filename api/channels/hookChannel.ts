import type { Knex } from 'knex';
import type { Config } from '../config';
import type { ChannelRecord, ChannelType } from './adapter';

/** The columns a ChannelRecord is made of. */
export const CHANNEL_COLUMNS = ['id', 'workspace_id', 'type', 'platform_id', 'identifier', 'description', 'name', 'config'];

/** A `channels` row (CHANNEL_COLUMNS) as adapters take it. */
export function channelRecordOf(row: Record<string, unknown> & { type: string; config: unknown }): ChannelRecord {
  return { ...row, type: row.type as ChannelType, config: row.config ?? {} } as ChannelRecord;
}

/** The channel of this type with this identifier (any workspace), or undefined. */
export async function channelByIdentifier(knex: Knex, type: ChannelType, identifier: string): Promise<ChannelRecord | undefined> {
  const row = await knex('channels').where({ identifier, type }).first(CHANNEL_COLUMNS);
  return row ? channelRecordOf(row) : undefined;
}

/**
 * The channel behind a hook URL `/api/hooks/{type}/{identifier}` (Telegram, custom, WhatsApp Cloud: the
 * identifier is a random 32-hex-digit key, never a credential) with its line (its opened secrets), or
 * undefined for a malformed or unknown identifier or a channel that has no line of this kind.
 */
export async function hookChannel<Line>(
  deps: { knex: Knex; config: Pick<Config, 'channelSecretsKey'> },
  type: ChannelType,
  identifier: string,
  lineOf: (config: Pick<Config, 'channelSecretsKey'>, channel: ChannelRecord) => Line | undefined,
): Promise<{ channel: ChannelRecord; line: Line } | undefined> {
  if (!/^[0-9a-f]{32}$/.test(identifier)) return undefined;
  const channel = await channelByIdentifier(deps.knex, type, identifier);
  const line = channel ? lineOf(deps.config, channel) : undefined;
  return channel && line ? { channel, line } : undefined;
}

/** The channels of these ids and type with their lines (a stored hook's channels, read again when it is processed from the store). */
export async function hookChannelsById<Line>(
  deps: { knex: Knex; config: Pick<Config, 'channelSecretsKey'> },
  type: ChannelType,
  ids: number[],
  lineOf: (config: Pick<Config, 'channelSecretsKey'>, channel: ChannelRecord) => Line | undefined,
): Promise<{ channel: ChannelRecord; line: Line }[]> {
  if (!ids.length) return [];
  const rows = await deps.knex('channels').whereIn('id', ids).where({ type }).select(CHANNEL_COLUMNS);
  return rows.flatMap((row: Record<string, unknown> & { type: string; config: unknown }) => {
    const channel = channelRecordOf(row);
    const line = lineOf(deps.config, channel);
    return line ? [{ channel, line }] : [];
  });
}
