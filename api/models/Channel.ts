import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { bySort } from './modifiers';

/** SPEC §3 channel platform ids. */
export const PLATFORM_IDS = { whatsapp: 1, telegram: 2, facebook: 3, widget: 4, email: 5, custom: 6, instagram: 7 } as const;
export type ChannelType = keyof typeof PLATFORM_IDS;
export type PlatformId = (typeof PLATFORM_IDS)[ChannelType];
export const CHANNEL_TYPES = Object.keys(PLATFORM_IDS) as ChannelType[];

/** A channel row as adapters see it (api/channels/adapter.ts): what they need to reach the provider. */
export interface ChannelRecord {
  id: number;
  workspaceId: number;
  type: ChannelType;
  platformId: number;
  identifier: string;
  description: string | null;
  name: string | null;
  config: Record<string, unknown>;
}

/** Statuses SPEC §4 names; adapters may report others, shown raw. */
export type ChannelStatus =
  | 'connected'
  | 'disconnected'
  | 'processing_channel'
  | 'restarting_channel'
  | 'login_required'
  | 'challenge_required'
  | 'qr_code'
  | 'incorrect_password'
  | 'invalid_username'
  | (string & {});

/**
 * A channel ("workspace platform"). identifier is the public routing key (unique across workspaces);
 * config holds what the adapter presents to the provider (bot token, page token, SMTP settings) and is
 * never sent to the browser; secretHash holds inbound secrets we only compare.
 */
export class Channel extends BaseModel {
  static override tableName = 'channels';
  static override jsonAttributes = ['config'];
  id!: number;
  workspaceId!: number;
  platformId!: PlatformId;
  type!: ChannelType;
  name!: string;
  description!: string;
  phone!: string | null;
  status!: ChannelStatus;
  /** Why it is in that status (api/channels/channelStatus.ts ChannelStatusReason); null when the status says it all. */
  statusReason!: string | null;
  identifier!: string;
  avatar!: string | null;
  config!: Record<string, unknown>;
  secretHash!: string | null;
  allowGroups!: boolean;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    ofType(qb, type: ChannelType) {
      qb.where('channels.type', type);
    },
    sorted: bySort('channels'),
  };
}
