import type { Config } from '../config';
import { signRowAuthorization, verifyRowAuthorization } from '../http/signedLink';

/** How long a download link opened in a new window stays valid. */
export const CONTRACT_LINK_TTL_SECONDS = 300;

// Its own key (http/signedLink.ts): a contract link never passes for a token, a report or a file link.
const PURPOSE = 'balcao:contracts:download:v1';

/** The `authorization` query value for GET /api/contract/{id}/download: one contract, 5 minutes. */
export const signContractAuthorization = (config: Pick<Config, 'jwtSecret'>, workspaceId: number, contractId: number, now = Date.now()) =>
  signRowAuthorization(config.jwtSecret, PURPOSE, workspaceId, contractId, CONTRACT_LINK_TTL_SECONDS, now);

/** The workspace a valid, unexpired link was made for (and for this contract), else undefined. */
export const verifyContractAuthorization = (config: Pick<Config, 'jwtSecret'>, contractId: number, value: unknown, now = Date.now()) =>
  verifyRowAuthorization(config.jwtSecret, PURPOSE, contractId, value, now);
