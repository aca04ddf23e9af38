import { channelSettings } from '../settings';
import { createTelegramChannel, deleteTelegramChannel, presentTelegramChannel, updateTelegramChannel } from './createTelegramChannel';
import { TelegramChannelSchema, TelegramChannelUpdateSchema } from './schema';

/** A Telegram line at /integrations/telegram (docs/channels/telegram.md): add, show, change (description, a new token), remove. */
export const telegramSettings = channelSettings({
  type: 'telegram',
  segment: 'telegram',
  present: presentTelegramChannel,
  create: { schema: TelegramChannelSchema, run: createTelegramChannel },
  update: { schema: TelegramChannelUpdateSchema, run: updateTelegramChannel },
  remove: deleteTelegramChannel,
});
