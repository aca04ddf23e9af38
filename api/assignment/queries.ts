import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { AssignmentTarget } from '../models/AssignmentRule';
import type { WeekSchedule } from '../models/BusinessHours';
import { DEFAULT_TIME_ZONE, isWithinBusinessHours } from '../businessHours/schedule';

type Db = Knex | Knex.Transaction;

/** Every id a rule names must exist in the workspace; another workspace's id is a 404 (DESIGN.md §2). */
export async function assertRuleTargets(trx: Knex.Transaction, workspaceId: number, rules: AssignmentTarget & { businessHours?: number | null }): Promise<void> {
  const checks: [string, number | null | undefined, Record<string, unknown>][] = [
    ['channels', rules.workspacePlatformId, {}],
    ['groups', rules.group, {}],
    ['business_hours', rules.businessHours, {}],
  ];
  for (const [table, id] of checks) {
    if (id == null) continue;
    if (!(await trx(table).where({ workspaceId, id }).first('id'))) throw errors.notFound();
  }
  if (rules.operator != null && !(await trx('workspace_members').where({ workspaceId, operatorId: rules.operator }).first('operator_id'))) {
    throw errors.notFound();
  }
}

/**
 * Operators the round-robin may pick for a group, in cursor order (operator id): active members of the
 * workspace and of the group, online and not 'ausente', and — when the rule names a schedule — only inside its hours.
 */
export async function eligibleAgents(db: Db, workspaceId: number, groupId: number, businessHoursId: number | null | undefined, now: Date): Promise<number[]> {
  if (businessHoursId != null) {
    const schedule = await db('business_hours').where({ workspaceId, id: businessHoursId }).first('days');
    const ws = await db('workspaces').where({ id: workspaceId }).first('time_zone');
    // A deleted schedule closes the rule rather than opening it around the clock.
    if (!schedule || !isWithinBusinessHours(schedule.days as WeekSchedule, now, ws?.timeZone ?? DEFAULT_TIME_ZONE)) return [];
  }
  const rows: { operatorId: number }[] = await db('group_members as gm')
    .join('workspace_members as wm', (j) => j.on('wm.workspace_id', 'gm.workspace_id').andOn('wm.operator_id', 'gm.operator_id'))
    .where({ 'gm.workspace_id': workspaceId, 'gm.group_id': groupId, 'wm.is_active': true, 'wm.is_online': true, 'wm.availability': 'online' })
    .orderBy('gm.operator_id')
    .select('gm.operator_id');
  return rows.map((r) => r.operatorId);
}

/** The next agent after the cursor, wrapping around: every eligible agent gets one before anyone gets two. */
export function nextAfter(eligible: number[], cursor: number | null): number | undefined {
  if (!eligible.length) return undefined;
  return eligible.find((id) => cursor === null || id > cursor) ?? eligible[0];
}
