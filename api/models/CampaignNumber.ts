import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

export const CAMPAIGN_NUMBER_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type CampaignNumberStatus = (typeof CAMPAIGN_NUMBER_STATUSES)[number];

/** One recipient of a campaign (a phone with country and area code, or an Instagram username). */
export class CampaignNumber extends BaseModel {
  static override tableName = 'campaign_numbers';
  static override jsonAttributes = ['variables'];
  id!: number;
  workspaceId!: number;
  campaignId!: number;
  phone!: string;
  name!: string | null;
  variables!: Record<string, string>;
  status!: CampaignNumberStatus;
  sentAt!: Date | null;
  error!: string | null;
  createdAt!: Date;

  static override modifiers: Modifiers = {
    /** Next batch in upload order (campaign_numbers_campaign_status_idx). */
    nextBatch(qb, size: number) {
      qb.where('campaign_numbers.status', 'pending').orderBy('campaign_numbers.id').limit(size);
    },
  };
}
