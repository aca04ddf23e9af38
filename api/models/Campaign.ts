import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { hasMany } from './relations';
import { newestFirst } from './modifiers';
import { CampaignNumber } from './CampaignNumber';
import type { MessageContent } from './Message';
import type { StoredFileRef } from './StoredFile';

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

export interface CampaignTemplate {
  name: string;
  language: string;
}

/** Statuses a campaign never leaves. */
export const FINAL_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['finished_success', 'finished_fail', 'canceled'];

/** A mass-message campaign; times are seconds (SPEC §9 defaults 100 / 1800 / 1 / 5). */
export class Campaign extends BaseModel {
  static override tableName = 'campaigns';
  static override jsonAttributes = ['message', 'template', 'mediaFile'];
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
  /** Numbers of the file that were not sent at all: invalid, duplicate or opted out. */
  totalNumbersInvalid!: number;
  /** Cloud API lines: the approved template; QR lines: null (free text in `message`). */
  template!: CampaignTemplate | null;
  /** The message's optional attachment, as stored_files had it at creation (docs/campaigns.md "Attachment"). */
  mediaFile!: StoredFileRef | null;
  /** Why the campaign paused by itself (a disconnected line), shown beside 'Pausado'. */
  pauseReason!: string | null;
  /** Why it finished with an error (an unreadable file, no valid number). */
  error!: string | null;
  operatorId!: number | null;
  startedAt!: Date | null;
  finishedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  numbers?: CampaignNumber[];

  static override relationMappings = (): RelationMappings => ({
    numbers: hasMany(CampaignNumber, 'campaigns.id', 'campaign_numbers.campaign_id'),
  });

  static override modifiers: Modifiers = {
    /** Campaigns that count against the plan's parallel-campaign limit (docs/campaigns.md). */
    running(qb) {
      qb.whereIn('campaigns.status', ['waiting_file_processing', 'waiting_processing', 'executing']);
    },
    newestFirst: newestFirst('campaigns'),
  };
}
