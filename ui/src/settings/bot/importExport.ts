import { BotExportSchema } from '../../../../api/bots/schema';
import type { BotDoc } from './botTypes';

/**
 * The bot file (docs/bots-editor.md): `{ "balcaoBot": 1, "bot": {...} }`, the bot without its id. Ids of
 * channels, schedules, tags, groups and agents are kept; the API re-checks them when the import is saved.
 */
export function exportFile(doc: BotDoc): string {
  return `${JSON.stringify({ balcaoBot: 1, bot: doc }, null, 2)}\n`;
}

export function exportFileName(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `bot-${slug || 'sem-nome'}.json`;
}

/** The bot in an imported file, or null when the file is not a bot file (SPEC §8: not shown to the user). */
export function parseBotFile(text: string): BotDoc | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = BotExportSchema.safeParse(json);
  return parsed.success ? (parsed.data.bot as BotDoc) : null;
}
