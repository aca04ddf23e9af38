import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { presentChannel } from '../presentChannel';
import { deleteChannel } from '../deleteChannel';
import { findChannel } from '../queries';
import { setChannelStatus } from '../channelStatus';
import { sealSecret } from '../secretBox';
import { ChannelSendError } from '../sendErrors';
import { deleteWebhook, getMe, setWebhook, type TelegramUser } from './client';
import { telegramLineOf } from './line';
import { INVALID_BOT_TOKEN, isTelegramConfig, type TelegramChannelReq, type TelegramChannelUpdateReq, type TelegramLineConfig } from './schema';

export function telegramWebhookUrlOf(publicUrl: string, identifier: string): string {
  return `${publicUrl}/api/hooks/telegram/${identifier}`;
}

/** setWebhook: "Ports currently supported for webhooks: 443, 80, 88, 8443", and the URL must be HTTPS. */
const WEBHOOK_PORTS = new Set(['443', '80', '88', '8443']);

/**
 * Why Telegram would refuse to deliver to this server's PUBLIC_URL (pt-BR, shown to the person adding the
 * line), or undefined when it is an HTTPS address on a port Telegram calls. Checked before anything is sent
 * to Telegram, so a wrong configuration says what to fix instead of Telegram's "bad webhook".
 */
export function webhookAddressProblem(publicUrl: string): string | undefined {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:' && WEBHOOK_PORTS.has(url.port || '443')) return undefined;
  return `O Telegram só entrega mensagens a um endereço HTTPS nas portas 443, 80, 88 ou 8443, e o endereço público deste servidor (PUBLIC_URL) é ${url.origin}. Peça ao administrador para configurar um PUBLIC_URL assim e tente novamente.`;
}

function requireWebhookAddress(publicUrl: string): void {
  const problem = webhookAddressProblem(publicUrl);
  if (problem) throw errors.badRequest(problem);
}

/** A Telegram line as the settings see it: the channel plus its bot's username. The token never leaves. */
export function presentTelegramChannel(row: Channel) {
  const config = row.config ?? {};
  return { ...presentChannel(row), botUsername: isTelegramConfig(config) ? config.botUsername : null };
}

/** A Bot API refusal while saving, as the settings' error: a bad token or no answer is a field error, the rest 400. */
function saveError(err: unknown) {
  if (err instanceof ChannelSendError) {
    if (err.disconnect) return errors.field('identifier', INVALID_BOT_TOKEN);
    // A field error, not a 503: the person saving fixes nothing on our side, they try again.
    if (err.transient) return errors.field('identifier', 'Sem contato com o Telegram para conferir o token. Tente novamente em instantes.');
    return errors.badRequest(err.message);
  }
  return err;
}

/**
 * POST /integrations/telegram (docs/channels/telegram.md). getMe proves the token (a wrong one is a field
 * error and nothing is saved); the channel gets a random identifier — the bot token is a credential, so it
 * is kept sealed in `config` and never used as the public routing key — and setWebhook points the bot at
 * `{PUBLIC_URL}/api/hooks/telegram/{identifier}` with a random secret_token, inside the insert's
 * transaction: a refused setWebhook leaves nothing saved either. A PUBLIC_URL Telegram would refuse (not
 * HTTPS, or a port other than 443, 80, 88, 8443) is a pt-BR 400 before Telegram is called.
 */
export async function createTelegramChannel(deps: Pick<AppDeps, 'knex' | 'config'>, actor: Actor, input: TelegramChannelReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  requireWebhookAddress(deps.config.publicUrl);
  let bot: TelegramUser;
  try {
    bot = await getMe(deps.config, input.identifier);
  } catch (err) {
    throw saveError(err);
  }
  // One webhook per bot: a second line for the same bot would silently take the first one's messages.
  const taken = await deps.knex('channels').where({ type: 'telegram' }).whereRaw("(config->>'botId') = ?", [String(bot.id)]).first('id');
  if (taken) throw errors.field('identifier', 'Este bot já está conectado a uma linha de Telegram.');
  const secretToken = randomBytes(32).toString('base64url');
  const config: TelegramLineConfig = {
    botId: bot.id,
    botUsername: bot.username ?? null,
    tokenSealed: sealSecret(deps.config, input.identifier),
    secretTokenSealed: sealSecret(deps.config, secretToken),
  };
  const stored: Record<string, unknown> = { ...config };
  return Channel.transaction(deps.knex, async (trx) => {
    const row = await Channel.query(trx).insertAndFetch({
      workspaceId: actor.workspaceId,
      platformId: PLATFORM_IDS.telegram,
      type: 'telegram',
      name: bot.username ? `@${bot.username}` : (bot.first_name ?? input.description),
      description: input.description,
      status: 'connected',
      identifier: randomBytes(16).toString('hex'),
      config: stored,
    });
    try {
      await setWebhook(deps.config, input.identifier, telegramWebhookUrlOf(deps.config.publicUrl, row.identifier), secretToken);
    } catch (err) {
      throw saveError(err);
    }
    return row;
  });
}

export const OTHER_BOT = 'Este token é de outro bot. Para usar outro bot, adicione uma nova linha.';

/**
 * PUT /integrations/telegram/:id (docs/channels/telegram.md): the description, and optionally a new token of
 * the same bot (after BotFather's /revoke, which disconnects the line). A new token is proven by getMe,
 * gets a fresh secret_token and setWebhook, inside the update's transaction (a refusal changes nothing),
 * and the line is connected again (channel.status, the banner goes away).
 */
export async function updateTelegramChannel(deps: Pick<AppDeps, 'knex' | 'config' | 'publisher'>, actor: Actor, id: number, input: TelegramChannelUpdateReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  const current = await findChannel(actor, 'telegram', id);
  if (!current) throw errors.notFound();
  const token = input.identifier || undefined;
  if (!token) {
    return Channel.query(deps.knex).where({ workspaceId: actor.workspaceId, type: 'telegram' }).patchAndFetchById(id, { description: input.description });
  }
  requireWebhookAddress(deps.config.publicUrl);
  const saved = current.config ?? {};
  let bot: TelegramUser;
  try {
    bot = await getMe(deps.config, token);
  } catch (err) {
    throw saveError(err);
  }
  if (isTelegramConfig(saved) && saved.botId !== bot.id) throw errors.field('identifier', OTHER_BOT);
  const secretToken = randomBytes(32).toString('base64url');
  const config: TelegramLineConfig = {
    botId: bot.id,
    botUsername: bot.username ?? null,
    tokenSealed: sealSecret(deps.config, token),
    secretTokenSealed: sealSecret(deps.config, secretToken),
  };
  const row = await Channel.transaction(deps.knex, async (trx) => {
    const updated = await Channel.query(trx)
      .where({ workspaceId: actor.workspaceId, type: 'telegram' })
      .patchAndFetchById(id, { description: input.description, name: bot.username ? `@${bot.username}` : current.name, config: { ...saved, ...config } });
    try {
      await setWebhook(deps.config, token, telegramWebhookUrlOf(deps.config.publicUrl, current.identifier), secretToken);
    } catch (err) {
      throw saveError(err);
    }
    return updated;
  });
  await setChannelStatus(deps, { id, workspaceId: actor.workspaceId }, 'connected');
  return (await Channel.query(deps.knex).findById(id)) ?? row;
}

/** DELETE /integrations/telegram/:id: the channel goes, and the bot stops calling us (deleteWebhook). */
export async function deleteTelegramChannel(deps: Pick<AppDeps, 'knex' | 'config' | 'logger'>, actor: Actor, id: number): Promise<Channel> {
  const row = await deleteChannel(deps, actor, 'telegram', id);
  const line = telegramLineOf(deps.config, { config: row.config ?? {} });
  if (line) {
    // The channel is gone either way; a bot whose webhook stays set only gets 404s from us.
    await deleteWebhook(deps.config, line.token).catch((err: unknown) => deps.logger.warn({ err, channelId: id }, 'telegram deleteWebhook failed'));
  }
  return row;
}
