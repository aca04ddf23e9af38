import type { Knex } from 'knex';
import { z } from 'zod';
import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { errors } from '../http/errors';
import { AccessLevel } from '../policy/levels';
import type { Actor } from '../policy/policy';
import { workflowIds } from '../../workflows/ids';
import { addDays, localToday, periodStart } from './filters';
import { EXPORT_KINDS, type ExportKind } from './exportTable';
import type { ReportExportInput } from './exportMail';

/** Who may create, list and delete scheduled exports: level 6 and above (docs/reports.md "Scheduled exports"). */
export const SCHEDULE_MIN_LEVEL = AccessLevel.MASTER;
export const SCHEDULE_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

const idList = z.array(z.number().int().positive()).max(200);
export const ScheduleBodySchema = z
  .object({
    kind: z.enum(EXPORT_KINDS, { error: 'Relatório inválido.' }),
    frequency: z.enum(SCHEDULE_FREQUENCIES, { error: 'Frequência inválida (use weekly ou monthly).' }),
    recipients: z.array(z.number().int().positive(), { error: 'Escolha ao menos um membro.' }).min(1, 'Escolha ao menos um membro.').max(50, 'No máximo 50 membros.'),
    filters: z
      .object({
        frequency: z.enum(['daily', 'weekly', 'monthly']).optional(),
        channels: idList.optional(),
        groups: idList.optional(),
        agents: idList.optional(),
        tags: idList.optional(),
        businessHours: z.boolean().optional(),
      })
      .strip()
      .default({}),
  })
  .strip();
export type ScheduleBody = z.output<typeof ScheduleBodySchema>;

interface ScheduleRow {
  id: number;
  workspaceId: number;
  createdBy: number | null;
  kind: ExportKind;
  frequency: ScheduleFrequency;
  recipients: number[];
  query: Record<string, string>;
  createdAt: Date;
}

function requireLevel(actor: Actor): void {
  if (actor.accessLevel < SCHEDULE_MIN_LEVEL) throw errors.forbidden();
}

/** The stored query of the filters (strings, as a report's query string would carry them). */
function queryOf(filters: ScheduleBody['filters']): Record<string, string> {
  const q: Record<string, string> = {};
  if (filters.frequency) q.frequency = filters.frequency;
  for (const key of ['channels', 'groups', 'agents', 'tags'] as const) if (filters[key]?.length) q[key] = filters[key].join(',');
  if (filters.businessHours) q.businessHours = 'true';
  return q;
}

/** The Temporal Schedule of a row: Mondays (weekly) or the 1st (monthly) at 07:00 in the workspace's time zone. */
async function createTemporalSchedule(client: Client, taskQueue: string, row: ScheduleRow, timeZone: string): Promise<void> {
  await client.schedule.create({
    scheduleId: workflowIds.reportSchedule(row.id),
    spec: {
      calendars: [row.frequency === 'weekly' ? { dayOfWeek: 'MONDAY', hour: 7, minute: 0 } : { dayOfMonth: 1, hour: 7, minute: 0 }],
      timezone: timeZone,
    },
    action: { type: 'startWorkflow', workflowType: 'scheduledReportExport', workflowId: workflowIds.reportSchedule(row.id), taskQueue, args: [{ scheduleId: row.id }] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    memo: { workspaceId: row.workspaceId },
  });
}

const publicRow = (r: ScheduleRow, names: Map<number, { name: string; email: string }>) => ({
  id: r.id,
  kind: r.kind,
  frequency: r.frequency,
  recipients: r.recipients.map((id) => ({ id, name: names.get(id)?.name ?? null, email: names.get(id)?.email ?? null })),
  filters: r.query,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
});

async function memberNames(db: Knex, workspaceId: number, ids: number[]): Promise<Map<number, { name: string; email: string }>> {
  if (!ids.length) return new Map();
  const rows: { id: number; name: string; email: string }[] = await db('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where('m.workspace_id', workspaceId)
    .whereIn('m.operator_id', ids)
    .select('o.id', 'o.name', 'o.email');
  return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
}

/** GET /report/schedules: the workspace's scheduled exports, newest first. */
export async function listSchedules(db: Knex, actor: Actor) {
  requireLevel(actor);
  const rows: ScheduleRow[] = await db('report_schedules').where('workspace_id', actor.workspaceId).orderBy('id', 'desc');
  const names = await memberNames(db, actor.workspaceId, [...new Set(rows.flatMap((r) => r.recipients))]);
  return rows.map((r) => publicRow(r, names));
}

/**
 * POST /report/schedules: the row, then its Temporal Schedule (the row is removed again when Temporal
 * refuses, so no row is left without a schedule). Recipients and filter ids are looked up in the workspace.
 */
export async function createSchedule(db: Knex, temporal: { client(): Promise<Client>; taskQueue: string }, actor: Actor, body: ScheduleBody) {
  requireLevel(actor);
  const recipients = [...new Set(body.recipients)];
  const names = await memberNames(db, actor.workspaceId, recipients);
  const fields = [];
  if (names.size !== recipients.length) fields.push({ key: 'recipients', descriptions: ['Membro não encontrado.'] });
  const lookups: [string, string, number[] | undefined][] = [
    ['channels', 'channels', body.filters.channels],
    ['groups', 'groups', body.filters.groups],
    ['tags', 'labels', body.filters.tags],
  ];
  for (const [key, table, ids] of lookups) {
    if (!ids?.length) continue;
    const found = await db(table).where('workspace_id', actor.workspaceId).whereIn('id', ids).count({ n: '*' }).first();
    if (Number(found?.n) !== new Set(ids).size) fields.push({ key: `filters.${key}`, descriptions: ['Não encontrado.'] });
  }
  if (body.filters.agents?.length && (await memberNames(db, actor.workspaceId, body.filters.agents)).size !== new Set(body.filters.agents).size) fields.push({ key: 'filters.agents', descriptions: ['Agente não encontrado.'] });
  if (fields.length) throw errors.validation(fields);

  const ws = await db('workspaces').where({ id: actor.workspaceId }).first('time_zone');
  const [row] = (await db('report_schedules')
    .insert({ workspaceId: actor.workspaceId, createdBy: actor.operatorId, kind: body.kind, frequency: body.frequency, recipients, query: JSON.stringify(queryOf(body.filters)) })
    .returning('*')) as ScheduleRow[];
  try {
    await createTemporalSchedule(await temporal.client(), temporal.taskQueue, row, ws?.timeZone || 'America/Sao_Paulo');
  } catch (err) {
    await db('report_schedules').where({ id: row.id }).delete();
    throw err;
  }
  return publicRow(row, names);
}

/** DELETE /report/schedules/:id: the Temporal Schedule and the row; another workspace's id is a 404. */
export async function deleteSchedule(db: Knex, temporal: { client(): Promise<Client> }, actor: Actor, id: number): Promise<void> {
  requireLevel(actor);
  const row = await db('report_schedules').where({ workspaceId: actor.workspaceId, id }).first('id');
  if (!row) throw errors.notFound();
  try {
    await (await temporal.client()).schedule.getHandle(workflowIds.reportSchedule(id)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await db('report_schedules').where({ workspaceId: actor.workspaceId, id }).delete();
}

/**
 * The exports a run of the schedule sends: for each recipient, the report of the period that just ended
 * (the last full week, Sunday to Saturday, or the last calendar month, in the workspace's time zone), with
 * that recipient's visibility. Below level 6 an agents filter is left out (they see their own calls).
 * A recipient who left, was deactivated or is still a pending invitation gets nothing.
 */
export async function scheduledExports(db: Knex, scheduleId: number, now = new Date()): Promise<ReportExportInput[]> {
  const row: ScheduleRow | undefined = await db('report_schedules').where({ id: scheduleId }).first();
  if (!row) return [];
  const ws = await db('workspaces').where({ id: row.workspaceId }).first('time_zone');
  const today = localToday(ws?.timeZone || 'America/Sao_Paulo', now);
  let from: string;
  let to: string;
  if (row.frequency === 'weekly') {
    from = periodStart(addDays(today, -7), 'weekly');
    to = addDays(from, 6);
  } else {
    to = addDays(periodStart(today, 'monthly'), -1);
    from = periodStart(to, 'monthly');
  }
  // Recipients are resolved now (the array has no foreign key): members still active in the workspace, and
  // not a pending invitation (verificationLevel 0: the address was typed by the inviter and has not accepted;
  // accepting with another account moves the place in the array, movePendingMember).
  const members: { operatorId: number; accessLevel: number }[] = await db('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.workspace_id': row.workspaceId, 'm.is_active': true })
    .where('o.verification_level', '>', 0)
    .whereIn('m.operator_id', row.recipients)
    .select('m.operator_id', 'm.access_level');
  return members.map((m) => {
    const query: Record<string, string> = { ...row.query, from, to };
    if (m.accessLevel < AccessLevel.MASTER) delete query.agents;
    return { workspaceId: row.workspaceId, operatorId: m.operatorId, kind: row.kind, query };
  });
}
