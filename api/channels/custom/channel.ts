import type { Config } from '../../config';
import type { ChannelRecord } from '../adapter';
import { openSecret } from '../secretBox';
import { isCustomConfig } from './schema';

export interface CustomLine {
  endpoint: string;
  secret: string;
}

/** The endpoint and opened signing secret of a custom channel; undefined when its config is not one. */
export function customLineOf(config: Pick<Config, 'channelSecretsKey'>, channel: Pick<ChannelRecord, 'config'>): CustomLine | undefined {
  const c = channel.config;
  if (!isCustomConfig(c)) return undefined;
  return { endpoint: c.endpoint, secret: openSecret(config, c.secretSealed) };
}
