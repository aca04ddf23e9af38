import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

/**
 * Everything a channel delivers, stored before processing. Insert with
 * `.onConflict(['channel_id', 'external_id']).ignore()`: no row back means a repeated webhook to acknowledge.
 */
export class InboundEvent extends BaseModel {
  static override tableName = 'inbound_events';
  static override jsonAttributes = ['payload'];
  id!: number;
  workspaceId!: number;
  channelId!: number;
  externalId!: string;
  /** message, status, reaction... as the adapter normalised it. */
  kind!: string;
  payload!: Record<string, unknown>;
  receivedAt!: Date;
  processedAt!: Date | null;
  attempts!: number;
  lastError!: string | null;

  static override modifiers: Modifiers = {
    /** Not processed yet (inbound_events_pending_idx), oldest first: the recovery sweep. */
    pending(qb) {
      qb.whereNull('inbound_events.processed_at').orderBy('inbound_events.received_at');
    },
  };
}
