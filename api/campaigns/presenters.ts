import type { Config } from '../config';
import type { Campaign } from '../models/Campaign';
import { signedDownloadUrl } from '../assets/signedUrl';

/**
 * SPEC §3 Campaign, plus what the list and the detail show beside it (docs/campaigns.md). `mediaFile` is
 * the attachment's file entry with a signed download URL (as a message's file), or null.
 */
export function presentCampaign(c: Campaign, config: Pick<Config, 'jwtSecret' | 'publicUrl'>) {
  const { id, ...progress } = presentCampaignProgress(c);
  return {
    id,
    name: c.name,
    workspacePlatformId: c.channelId,
    message: c.message,
    template: c.template ?? null,
    file: c.file,
    mediaFile: c.mediaFile ? { ...c.mediaFile, url: signedDownloadUrl(config, c.mediaFile.key) } : null,
    executionDate: c.executionDate,
    chunks: c.chunks,
    timeBetweenChunks: c.timeBetweenChunks,
    initialTimeBetweenMessages: c.initialTimeBetweenMessages,
    finalTimeBetweenMessages: c.finalTimeBetweenMessages,
    // status, the totals, completion, pauseReason and error: the same fields `campaign.status` carries live.
    ...progress,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** SPEC §9: floor of sent/total×100, a total of 0 divides by 1. */
export function completionPercent(executed: number, total: number): number {
  return Math.floor((executed / (total || 1)) * 100);
}

/** What `campaign.status` carries live: progress and status, no message or numbers. */
export function presentCampaignProgress(c: Pick<Campaign, 'id' | 'status' | 'totalNumbers' | 'totalNumbersExecuted' | 'totalNumbersFailed' | 'totalNumbersInvalid' | 'pauseReason' | 'error'>) {
  return {
    id: c.id,
    status: c.status,
    totalNumbers: c.totalNumbers,
    totalNumbersExecuted: c.totalNumbersExecuted,
    totalNumbersFailed: c.totalNumbersFailed,
    totalNumbersInvalid: c.totalNumbersInvalid,
    completion: completionPercent(c.totalNumbersExecuted, c.totalNumbers),
    pauseReason: c.pauseReason,
    error: c.error,
  };
}
