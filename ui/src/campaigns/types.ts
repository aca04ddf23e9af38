/** The campaign shapes the screens use (no browser-only imports: the Node tests read them too). */
export type CampaignStatus = 'waiting_file_processing' | 'waiting_processing' | 'executing' | 'paused' | 'finished_success' | 'finished_fail' | 'canceled';

/** A campaign as GET /api/campaign(/{id}) answers it (api/campaigns/presenters.ts). */
export interface Campaign {
  id: number;
  name: string;
  workspacePlatformId: number | null;
  message: { insert: string }[];
  template: { name: string; language: string } | null;
  file: string | null;
  /** The message's optional attachment with a signed download link (docs/campaigns.md "Attachment"). */
  mediaFile: { key: string; fileName: string; mime: string; size: number; url: string } | null;
  executionDate: string | null;
  chunks: number;
  timeBetweenChunks: number;
  initialTimeBetweenMessages: number;
  finalTimeBetweenMessages: number;
  status: CampaignStatus;
  totalNumbers: number;
  totalNumbersExecuted: number;
  totalNumbersFailed: number;
  totalNumbersInvalid: number;
  completion: number;
  pauseReason: string | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the `campaign.status` realtime event carries (api/campaigns/realtime.ts). */
export type CampaignProgress = Pick<Campaign, 'id' | 'status' | 'totalNumbers' | 'totalNumbersExecuted' | 'totalNumbersFailed' | 'totalNumbersInvalid' | 'completion' | 'pauseReason' | 'error'>;
export const CAMPAIGN_STATUS_EVENT = 'campaign.status';

export const NUMBER_STATUSES = ['pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'invalid', 'duplicate', 'opted_out'] as const;
export type NumberStatus = (typeof NUMBER_STATUSES)[number];

export interface CampaignNumber {
  id: number;
  raw: string;
  normalized: string | null;
  status: NumberStatus;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  error: string | null;
}

export interface NumbersPage {
  data: CampaignNumber[];
  matchCount: number;
  totalCount: number;
  counts: Partial<Record<NumberStatus, number>>;
}

export interface CampaignPage {
  data: Campaign[];
  total: number;
}

/** GET /api/campaign/plan (api/billing/limits.ts): `refusal` is why no campaign can be created, or null. */
export interface CampaignPlan {
  campaignUnits: number;
  running: number;
  refusal: string | null;
}
