import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/** How long a report link opened in a new window stays valid. */
export const REPORT_LINK_TTL_SECONDS = 300;

// Its own key, derived from the JWT secret: a report signature never passes for a token or a download link.
const keyOf = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('balcao:campaigns:report:v1').digest();
const sign = (jwtSecret: string, workspaceId: number, campaignId: number, exp: number) =>
  createHmac('sha256', keyOf(jwtSecret)).update(`${workspaceId}\n${campaignId}\n${exp}`).digest('base64url');

/** The `authorization` query value for GET /api/report/campaign/{id}: `{workspaceId}.{exp}.{sig}`, one campaign, 5 minutes. */
export function signReportAuthorization(config: Pick<Config, 'jwtSecret'>, workspaceId: number, campaignId: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + REPORT_LINK_TTL_SECONDS;
  return `${workspaceId}.${exp}.${sign(config.jwtSecret, workspaceId, campaignId, exp)}`;
}

/** The workspace a valid, unexpired signature was made for (and for this campaign), else undefined. */
export function verifyReportAuthorization(config: Pick<Config, 'jwtSecret'>, campaignId: number, value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([0-9]{1,10})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return undefined;
  const [workspaceId, exp] = [Number(m[1]), Number(m[2])];
  if (exp * 1000 <= now) return undefined;
  const expected = Buffer.from(sign(config.jwtSecret, workspaceId, campaignId, exp));
  const given = Buffer.from(m[3]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? workspaceId : undefined;
}
