import type { Config } from '../config';
import { signLink, verifyLink } from '../http/signedLink';

/** How long a report link opened in a new window stays valid. */
export const REPORT_LINK_TTL_SECONDS = 300;

// Its own key (http/signedLink.ts): a report signature never passes for a token or a download link.
const PURPOSE = 'balcao:campaigns:report:v1';

/** The `authorization` query value for GET /api/report/campaign/{id}: `{workspaceId}.{exp}.{sig}`, one campaign, 5 minutes. */
export function signReportAuthorization(config: Pick<Config, 'jwtSecret'>, workspaceId: number, campaignId: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + REPORT_LINK_TTL_SECONDS;
  return `${workspaceId}.${exp}.${signLink(config.jwtSecret, PURPOSE, [workspaceId, campaignId], exp)}`;
}

/** The workspace a valid, unexpired signature was made for (and for this campaign), else undefined. */
export function verifyReportAuthorization(config: Pick<Config, 'jwtSecret'>, campaignId: number, value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([0-9]{1,10})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return undefined;
  const workspaceId = Number(m[1]);
  return verifyLink(config.jwtSecret, PURPOSE, [workspaceId, campaignId], m[2], m[3], now) ? workspaceId : undefined;
}
