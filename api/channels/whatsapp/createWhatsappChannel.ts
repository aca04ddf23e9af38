import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { assertWithinLimit } from '../../billing/limits';
import { presentChannel } from '../presentChannel';
import { sealSecret } from '../secretBox';
import { digitsOf } from './phone';
import { isCloudConfig, type CloudLineConfig, type WhatsappChannelReq } from './schema';

export function webhookUrlOf(publicUrl: string, identifier: string): string {
  return `${publicUrl}/api/hooks/whatsapp/${identifier}`;
}

/** The one webhook of a Meta app for all its lines (docs/channels/whatsapp.md "One webhook per Meta app"). */
export function appWebhookUrlOf(publicUrl: string): string {
  return `${publicUrl}/api/hooks/whatsapp`;
}

/**
 * A WhatsApp line as the settings see it: the channel plus its phone rules and, for a Cloud line, the
 * webhook URLs (its own, and the app-level one every line of the Meta app shares) and verify token to paste
 * into Meta's dashboard. The access token and app secret never leave.
 */
export function presentWhatsappChannel(row: Channel, publicUrl: string) {
  const config = row.config ?? {};
  const cloud = isCloudConfig(config);
  return {
    ...presentChannel(row),
    allowGroups: row.allowGroups,
    provider: cloud ? 'cloud' : 'qr',
    ...(cloud
      ? { phoneNumberId: config.phoneNumberId, businessAccountId: config.businessAccountId, webhookUrl: webhookUrlOf(publicUrl, row.identifier), appWebhookUrl: appWebhookUrlOf(publicUrl), verifyToken: config.verifyToken }
      : {}),
  };
}

/**
 * POST /integrations/whatsapp. A Cloud line keeps its Meta ids, its access token and app secret sealed
 * (api/channels/secretBox.ts) and a generated verify token; it starts `connected` (Meta calls us; the
 * first refused send or webhook with an auth error disconnects it). A QR line starts `qr_code`: its
 * connection workflow (`channel:{id}`) shows the QR to read.
 */
export async function createWhatsappChannel(deps: Pick<AppDeps, 'knex' | 'config'>, actor: Actor, input: WhatsappChannelReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  let config: Record<string, unknown> = { provider: 'qr' };
  if (input.provider === 'cloud') {
    const cloud: CloudLineConfig = {
      provider: 'cloud',
      phoneNumberId: input.phoneNumberId!,
      businessAccountId: input.businessAccountId!,
      accessTokenSealed: sealSecret(deps.config, input.accessToken!),
      appSecretSealed: sealSecret(deps.config, input.appSecret!),
      verifyToken: randomBytes(24).toString('base64url'),
    };
    config = { ...cloud };
  }
  return Channel.transaction(deps.knex, async (trx) => {
    // A line beyond the plan's WhatsApp lines is refused (docs/billing.md "Limits").
    await assertWithinLimit(trx, actor.workspaceId, 'whatsapp');
    return Channel.query(trx).insertAndFetch({
      workspaceId: actor.workspaceId,
      platformId: PLATFORM_IDS.whatsapp,
      type: 'whatsapp',
      name: input.name,
      description: input.name,
      phone: digitsOf(input.phone),
      allowGroups: input.allowGroups,
      status: input.provider === 'cloud' ? 'connected' : 'qr_code',
      identifier: randomBytes(16).toString('hex'),
      config,
    });
  });
}
