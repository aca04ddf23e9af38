import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { validateUserUrl } from '../../http/guardedFetch';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { presentChannel } from '../presentChannel';
import { authorize, type Actor } from '../../policy/policy';
import { newWebhookSecret } from '../../webhooks/secret';
import { sealSecret } from '../secretBox';
import type { CustomChannelConfig, CustomChannelReq } from './schema';
import { customLoopbackAllowed } from './testing';

export function customHookUrlOf(publicUrl: string, identifier: string): string {
  return `${publicUrl}/api/hooks/custom/${identifier}`;
}

/** A custom channel as the settings see it: the endpoint (`hashIdentifier`) and our inbound URL; never the secret. */
export function presentCustomChannel(row: Channel, publicUrl: string) {
  const config = (row.config ?? {}) as Partial<CustomChannelConfig>;
  return { ...presentChannel(row), hashIdentifier: config.endpoint ?? null, webhookUrl: customHookUrlOf(publicUrl, row.identifier) };
}

/**
 * POST /integrations/custom. The endpoint must pass the SSRF guard (https, public address after DNS);
 * the identifier (our inbound URL's key) and the Standard Webhooks secret are generated. The secret is
 * kept sealed (api/channels/secretBox.ts) and returned to the caller this once.
 */
export async function createCustomChannel(deps: Pick<AppDeps, 'knex' | 'config'>, actor: Actor, input: CustomChannelReq): Promise<{ channel: Channel; secret: string }> {
  authorize(actor, 'channels.manage');
  const reason = await validateUserUrl(input.hashIdentifier, { allowLoopbackForTests: customLoopbackAllowed() });
  if (reason) throw errors.field('hashIdentifier', reason);
  const secret = newWebhookSecret();
  const config: CustomChannelConfig = { endpoint: input.hashIdentifier, secretSealed: sealSecret(deps.config, secret) };
  const channel = await Channel.query(deps.knex).insertAndFetch({
    workspaceId: actor.workspaceId,
    platformId: PLATFORM_IDS.custom,
    type: 'custom',
    name: input.description,
    description: input.description,
    status: 'connected',
    identifier: randomBytes(16).toString('hex'),
    config: { ...config },
  });
  return { channel, secret };
}
