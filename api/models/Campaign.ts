import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { CampaignNumber } from './CampaignNumber';
import type { MessageContent } from './Message';

/** SPEC §4 campaign statuses (checked by campaigns_status_check). */
export const CAMPAIGN_STATUSES = [
  'waiting_file_processing',
  'waiting_processing',
  'executing',
  'paused',
  'finished_success',
  'finished_fail',
  'canceled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A mass-message campaign; times are seconds (SPEC §9 defaults 100 / 1800 / 1 / 5). */
export class Campaign extends BaseModel {
  static override tableName = 'campaigns';
  static override jsonAttributes = ['message'];
  id!: number;
  workspaceId!: number;
  /** workspacePlatformId in SPEC. */
  channelId!: number | null;
  name!: string;
  message!: MessageContent;
  file!: string | null;
  executionDate!: Date | null;
  chunks!: number;
  timeBetweenChunks!: number;
  initialTimeBetweenMessages!: number;
  finalTimeBetweenMessages!: number;
  status!: CampaignStatus;
  totalNumbers!: number;
  totalNumbersExecuted!: number;
  totalNumbersFailed!: number;
  operatorId!: number | null;
  startedAt!: Date | null;
  finishedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  numbers?: CampaignNumber[];

  static override relationMappings = (): RelationMappings => ({
    numbers: { relation: BaseModel.HasManyRelation, modelClass: CampaignNumber, join: { from: 'campaigns.id', to: 'campaign_numbers.campaign_id' } },
  });

  static override modifiers: Modifiers = {
    /** Campaigns that count against the plan's parallel-campaign limit. */
    running(qb) {
      qb.whereIn('campaigns.status', ['waiting_processing', 'executing']);
    },
    newestFirst(qb) {
      qb.orderBy('campaigns.created_at', 'desc').orderBy('campaigns.id', 'desc');
    },
  };
}
