import type { ActivityDeps } from '../deps';
import type { QrLiveSockets } from '../channels/whatsapp/liveSockets';
import { finishCampaign, loadCampaignPlan, startCampaignRun } from './campaignStatus';
import { DEFAULT_NUMBERS_FILE_LIMITS, type NumbersFileLimits } from './numbersFile';
import { processCampaignFile } from './processCampaignFile';
import { sendCampaignNumbers, type CampaignSendOptions } from './sendCampaignNumbers';

export interface CampaignActivityOptions {
  send: Partial<CampaignSendOptions>;
  fileLimits: Partial<NumbersFileLimits>;
}

/** The campaign run's activities (workflows/campaigns/campaignRun.ts); `qrSockets`: the QR sockets this process holds. */
export function campaignActivities(deps: ActivityDeps, options: Partial<CampaignActivityOptions> = {}, qrSockets?: QrLiveSockets) {
  return {
    processCampaignFile: processCampaignFile(deps, { ...DEFAULT_NUMBERS_FILE_LIMITS, ...options.fileLimits }),
    loadCampaignPlan: loadCampaignPlan(deps),
    startCampaignRun: startCampaignRun(deps),
    sendCampaignNumbers: sendCampaignNumbers(deps, options.send, qrSockets),
    finishCampaign: finishCampaign(deps),
  };
}
