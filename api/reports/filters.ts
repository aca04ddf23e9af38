import type { Knex } from 'knex';
import { errors, type FieldError } from '../http/errors';
import { AccessLevel } from '../policy/levels';
import type { Actor } from '../policy/policy';
import type { WeekSchedule } from '../models/BusinessHours';
import { DEFAULT_PERIOD_DAYS, MAX_PERIOD_DAYS, type Frequency, type ReportQuery } from './schema';

/** A report's period and filters, checked against the workspace (docs/reports.md "Who sees what"). */
export interface ReportScope {
  workspaceId: number;
  timeZone: string;
  /** Local days, inclusive, YYYY-MM-DD. */
  from: string;
  to: string;
  today: string;
  frequency: Frequency;
  channels?: number[];
  groups?: number[];
  /** Forced to the viewer alone below level 6. */
  agents?: number[];
  tags?: number[];
  /** Below level 6: the figures are the viewer's own. */
  ownOnly: boolean;
  businessHours: boolean;
  /** With businessHours: the workspace's first schedule (Configurações › Horário comercial), as it is now. */
  schedule?: WeekSchedule;
}

const DAY_MS = 86_400_000;
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Today's date on the wall clock of `timeZone`. */
export function localToday(timeZone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return parts;
}

async function unknownIds(db: Knex, table: string, workspaceId: number, idColumn: string, wanted: number[] | undefined, extra?: (qb: Knex.QueryBuilder) => void): Promise<boolean> {
  if (!wanted?.length) return false;
  const qb = db(table).where('workspace_id', workspaceId).whereIn(idColumn, wanted);
  extra?.(qb);
  const found = await qb.pluck(idColumn);
  return new Set(found.map(Number)).size !== new Set(wanted).size;
}

/**
 * The scope of a report call: the period (default the last 7 days up to today in the workspace's time zone,
 * at most 366 days), the frequency, and the filter ids, each looked up inside the workspace: an id of another
 * workspace is refused exactly like an unknown one (400 on its field). All failing fields at once.
 */
export async function resolveScope(db: Knex, actor: Actor, q: ReportQuery): Promise<ReportScope> {
  const ws = await db('workspaces').where({ id: actor.workspaceId }).first('time_zone');
  const timeZone: string = ws?.timeZone || 'America/Sao_Paulo';
  const today = localToday(timeZone);
  const to = q.to ?? (q.from ? addDays(q.from, DEFAULT_PERIOD_DAYS - 1) : today);
  const from = q.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  const fields: FieldError[] = [];
  const span = daysBetween(from, to) + 1;
  if (span < 1) fields.push({ key: 'to', descriptions: ['A data final deve ser igual ou posterior à inicial.'] });
  else if (span > MAX_PERIOD_DAYS) fields.push({ key: 'to', descriptions: [`O período pode ter no máximo ${MAX_PERIOD_DAYS} dias.`] });
  let schedule: WeekSchedule | undefined;
  if (q.businessHours === 'true') {
    const first = await db('business_hours').where({ workspaceId: actor.workspaceId }).orderBy([{ column: 'sort' }, { column: 'id' }]).first('days');
    schedule = first?.days as WeekSchedule | undefined;
    if (!schedule) fields.push({ key: 'businessHours', descriptions: ['Cadastre um horário comercial em Configurações › Horário comercial para usar este modo.'] });
  }

  const ownOnly = actor.accessLevel < AccessLevel.MASTER;
  if (ownOnly && q.agents?.some((a) => a !== actor.operatorId)) fields.push({ key: 'agents', descriptions: ['Você só pode ver os seus próprios números.'] });
  const [badChannel, badGroup, badAgent, badTag] = await Promise.all([
    unknownIds(db, 'channels', actor.workspaceId, 'id', q.channels),
    unknownIds(db, 'groups', actor.workspaceId, 'id', q.groups),
    unknownIds(db, 'workspace_members', actor.workspaceId, 'operator_id', q.agents),
    unknownIds(db, 'labels', actor.workspaceId, 'id', q.tags),
  ]);
  if (badChannel) fields.push({ key: 'channels', descriptions: ['Canal não encontrado.'] });
  if (badGroup) fields.push({ key: 'groups', descriptions: ['Grupo não encontrado.'] });
  if (badAgent && !fields.some((f) => f.key === 'agents')) fields.push({ key: 'agents', descriptions: ['Agente não encontrado.'] });
  if (badTag) fields.push({ key: 'tags', descriptions: ['Etiqueta não encontrada.'] });
  if (fields.length) throw errors.validation(fields);

  return {
    workspaceId: actor.workspaceId,
    timeZone,
    from,
    to,
    today,
    frequency: q.frequency,
    channels: q.channels?.length ? q.channels : undefined,
    groups: q.groups?.length ? q.groups : undefined,
    agents: ownOnly ? [actor.operatorId] : q.agents?.length ? q.agents : undefined,
    tags: q.tags?.length ? q.tags : undefined,
    ownOnly,
    businessHours: schedule !== undefined,
    schedule,
  };
}

/** The start (local day) of the period a day falls in: itself, its Sunday, or the first of its month. */
export function periodStart(day: string, frequency: Frequency): string {
  if (frequency === 'daily') return day;
  if (frequency === 'monthly') return `${day.slice(0, 8)}01`;
  const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -dow);
}

/** Every period start from `from` to `to` (a partial first or last period included). */
export function periodStarts(from: string, to: string, frequency: Frequency): string[] {
  const out: string[] = [];
  let p = periodStart(from, frequency);
  while (p <= to) {
    out.push(p);
    p = frequency === 'daily' ? addDays(p, 1) : frequency === 'weekly' ? addDays(p, 7) : nextMonth(p);
  }
  return out;
}

function nextMonth(first: string): string {
  const y = Number(first.slice(0, 4));
  const m = Number(first.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** The last day of the period starting at `start`, clipped to `to`. */
export function periodEnd(start: string, frequency: Frequency, to: string): string {
  const end = frequency === 'daily' ? start : frequency === 'weekly' ? addDays(start, 6) : addDays(nextMonth(start), -1);
  return end < to ? end : to;
}

const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];
const br = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** SPEC §3 Report row's label (short, for charts) and labelLong (tables). */
export function periodLabels(start: string, frequency: Frequency, from: string, to: string): { label: string; labelLong: string } {
  const first = start < from ? from : start;
  if (frequency === 'daily') return { label: br(start).slice(0, 5), labelLong: br(start) };
  if (frequency === 'monthly') return { label: `${start.slice(5, 7)}/${start.slice(0, 4)}`, labelLong: `${MONTHS[Number(start.slice(5, 7)) - 1]} de ${start.slice(0, 4)}` };
  return { label: br(first).slice(0, 5), labelLong: `${br(first)} – ${br(periodEnd(start, frequency, to))}` };
}

/** The dimension filters of report_daily / report_facts as SQL on `alias`. */
export function dimensionWhere(qb: Knex.QueryBuilder, scope: ReportScope, alias: string, forFacts = false): Knex.QueryBuilder {
  if (scope.channels) qb.whereIn(`${alias}.channel_id`, scope.channels);
  if (scope.groups) qb.whereIn(`${alias}.group_id`, scope.groups);
  if (scope.agents) qb.whereIn(`${alias}.operator_id`, scope.agents);
  if (scope.tags && forFacts) {
    qb.whereExists(function () {
      void this.select(1).from('call_labels as cl').whereRaw(`cl.call_id = ${alias}.call_id`).whereIn('cl.label_id', scope.tags!);
    });
  }
  return qb;
}
