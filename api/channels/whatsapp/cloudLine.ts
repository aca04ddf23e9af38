import type { Config } from '../../config';
import type { ChannelRecord } from '../adapter';
import { openSecret } from '../secretBox';
import { isCloudConfig } from './schema';

export interface CloudLine {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** The Cloud credentials of a channel, opened from their sealed form; undefined for a QR line. */
export function cloudLineOf(config: Pick<Config, 'channelSecretsKey'>, channel: Pick<ChannelRecord, 'config'>): CloudLine | undefined {
  const c = channel.config;
  if (!isCloudConfig(c)) return undefined;
  return {
    phoneNumberId: c.phoneNumberId,
    businessAccountId: c.businessAccountId,
    accessToken: openSecret(config, c.accessTokenSealed),
    appSecret: openSecret(config, c.appSecretSealed),
    verifyToken: c.verifyToken,
  };
}
