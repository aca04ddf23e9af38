import { BotDocumentSchema, BotExportSchema } from '../../../../api/bots/schema';
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

/** Fields of a bot row that a file may carry (an API answer, another workspace's export) and an import never keeps. */
const ROW_FIELDS = ['id', 'workspaceId', 'createdAt', 'updatedAt'];

/**
 * The bot in an imported file, or null when the file is not a bot file (SPEC §8: not shown to the user).
 * Takes our export (`{balcaoBot: 1, bot}`), a bare bot as SPEC §3 describes it (menu options as
 * `{name, goTo}`, any guid strings) and an API answer (`{data: bot}`); options without a guid get one.
 */
export function parseBotFile(text: string): BotDoc | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  if ('balcaoBot' in json) {
    const parsed = BotExportSchema.safeParse(json);
    return parsed.success ? parsed.data.bot : null;
  }
  const bare = isObject(json.data) && Object.keys(json).length === 1 ? json.data : json;
  const bot = Object.fromEntries(Object.entries(bare).filter(([k]) => !ROW_FIELDS.includes(k)));
  const parsed = BotDocumentSchema.safeParse(bot);
  return parsed.success ? parsed.data : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
