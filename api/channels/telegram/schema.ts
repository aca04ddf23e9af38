import { z } from 'zod';

/**
 * POST /integrations/telegram (SPEC §3 Telegram: identifier = the bot token, description). Shared with
 * the settings screen. The token's shape is BotFather's `{bot id}:{secret}`; getMe decides if it is valid.
 */
export const INVALID_BOT_TOKEN = 'Token do bot inválido. Copie o token que o @BotFather enviou.';

export const TelegramChannelSchema = z.object({
  identifier: z
    .string({ error: 'Informe o token do bot.' })
    .trim()
    .min(1, 'Informe o token do bot.')
    .max(255, 'No máximo 255 caracteres.')
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, INVALID_BOT_TOKEN),
  description: z.string({ error: 'A descrição é obrigatória.' }).trim().min(1, 'A descrição é obrigatória.').max(255, 'No máximo 255 caracteres.'),
});
export type TelegramChannelReq = z.infer<typeof TelegramChannelSchema>;

/** What a Telegram line keeps in channels.config; the bot token and webhook secret sealed (secretBox). */
export interface TelegramLineConfig {
  botId: number;
  botUsername: string | null;
  tokenSealed: string;
  secretTokenSealed: string;
}

export function isTelegramConfig(config: Record<string, unknown>): config is Record<string, unknown> & TelegramLineConfig {
  return typeof config.tokenSealed === 'string' && typeof config.secretTokenSealed === 'string';
}

/**
 * PUT /integrations/telegram/{id}: the description, and a new token for the same bot (BotFather's /revoke
 * gives one; a revoked token disconnects the line). An empty token keeps the saved one.
 */
export const TelegramChannelUpdateSchema = z.object({
  identifier: z
    .string({ error: INVALID_BOT_TOKEN })
    .trim()
    .max(255, 'No máximo 255 caracteres.')
    .regex(/^(\d{1,20}:[A-Za-z0-9_-]{20,})?$/, INVALID_BOT_TOKEN)
    .optional(),
  description: TelegramChannelSchema.shape.description,
});
export type TelegramChannelUpdateReq = z.infer<typeof TelegramChannelUpdateSchema>;
