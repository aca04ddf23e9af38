import type { Knex } from 'knex';
import { errors, type FieldError } from '../http/errors';
import type { BotReq } from './schema';

type Db = Knex | Knex.Transaction;

const MAX_INT = 2147483647;

/** One id the bot names, with the request path its error goes to (`paths.0.actions.2.tag`). */
interface Reference {
  key: string;
  id: number;
}

/** Where each kind of reference is looked up inside the workspace, and what the field error says. */
const KINDS = {
  channel: { table: 'channels', column: 'id', message: 'Canal não encontrado.' },
  businessHours: { table: 'business_hours', column: 'id', message: 'Horário comercial não encontrado.' },
  tag: { table: 'labels', column: 'id', message: 'Etiqueta não encontrada.' },
  group: { table: 'groups', column: 'id', message: 'Grupo não encontrado.' },
  agent: { table: 'workspace_members', column: 'operator_id', message: 'Agente não encontrado.' },
} as const;
type Kind = keyof typeof KINDS;

/** Every row id the bot points at, grouped by kind, each with its exact field path. */
export function botReferences(bot: Pick<BotReq, 'channels' | 'businessHours' | 'paths'>): Record<Kind, Reference[]> {
  const refs: Record<Kind, Reference[]> = { channel: [], businessHours: [], tag: [], group: [], agent: [] };
  bot.channels.forEach((id, i) => refs.channel.push({ key: `channels.${i}`, id }));
  bot.businessHours.forEach((id, i) => refs.businessHours.push({ key: `businessHours.${i}`, id }));
  bot.paths.forEach((path, i) =>
    path.actions.forEach((action, j) => {
      const at = `paths.${i}.actions.${j}`;
      if (action.type === 'tag') refs.tag.push({ key: `${at}.tag`, id: action.tag });
      if (action.type === 'agent') refs[action.assigneeType].push({ key: `${at}.assignee`, id: action.assignee });
    }),
  );
  return refs;
}

/**
 * Rejects a bot that names a channel, schedule, tag, group or agent this workspace does not have (another
 * workspace's ids included): one field error per reference, all at once, one query per kind.
 */
export async function assertBotReferences(db: Db, workspaceId: number, bot: Pick<BotReq, 'channels' | 'businessHours' | 'paths'>): Promise<void> {
  const refs = botReferences(bot);
  const failures: FieldError[] = [];
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const list = refs[kind];
    if (!list.length) continue;
    const { table, column, message } = KINDS[kind];
    // Ids beyond PostgreSQL's integer cannot exist: they are reported missing without asking the database.
    const ids = [...new Set(list.map((r) => r.id))].filter((id) => id <= MAX_INT);
    const rows: Record<string, number>[] = !ids.length ? [] : await db(table).where(`${table}.workspace_id`, workspaceId).whereIn(`${table}.${column}`, ids).select(`${table}.${column} as id`);
    const found = new Set(rows.map((r) => Number(r.id)));
    for (const r of list) if (!found.has(r.id)) failures.push({ key: r.key, descriptions: [message] });
  }
  if (failures.length) throw errors.validation(failures);
}
