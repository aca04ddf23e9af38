import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

/**
 * A number's life (docs/campaigns.md): `pending` → `sending` (claimed, with the idempotency key; `handedAt`
 * committed right before the provider call) → `sent` → `delivered` → `read`, or `failed` with a reason. Rows the file processing
 * rejects are kept for the report as `invalid`, `duplicate` or `opted_out` and never sent.
 */
export const CAMPAIGN_NUMBER_STATUSES = ['pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'invalid', 'duplicate', 'opted_out', 'skipped'] as const;
export type CampaignNumberStatus = (typeof CAMPAIGN_NUMBER_STATUSES)[number];

/** One row of a campaign's file: a phone with country and area code. */
export class CampaignNumber extends BaseModel {
  static override tableName = 'campaign_numbers';
  static override jsonAttributes = ['variables'];
  id!: number;
  workspaceId!: number;
  campaignId!: number;
  /** The normalised digits when valid, else the value as given (cut to 64). */
  phone!: string;
  raw!: string | null;
  normalized!: string | null;
  name!: string | null;
  /** Columns 2, 3, ... of the row as `{"1": ..., "2": ...}`: the values of {{1}}, {{2}}, ... */
  variables!: Record<string, string>;
  status!: CampaignNumberStatus;
  idempotencyKey!: string | null;
  externalId!: string | null;
  attempts!: number;
  sendingAt!: Date | null;
  /** When the number was handed to the provider (null while it only waits for the line's slot). */
  handedAt!: Date | null;
  sentAt!: Date | null;
  deliveredAt!: Date | null;
  readAt!: Date | null;
  error!: string | null;
  createdAt!: Date;

  static override modifiers: Modifiers = {
    /** Next batch in upload order (campaign_numbers_campaign_status_idx). */
    nextBatch(qb, size: number) {
      qb.where('campaign_numbers.status', 'pending').orderBy('campaign_numbers.id').limit(size);
    },
  };
}
