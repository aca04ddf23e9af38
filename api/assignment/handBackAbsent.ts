import type { AppDeps } from '../deps';
import { publishReassigned, redistributeFrom } from './redistribute';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';

type HandBackDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

/** Unanswered round-robin calls held by someone who is inactive, 'ausente', or offline for at least `graceMs`. */
const AWAY = `(NOT m.is_active OR m.availability = 'ausente' OR (NOT m.is_online AND m.last_seen_at <= now() - ? * interval '1 millisecond'))`;

/**
 * Hands the agent's unanswered round-robin calls back to the rotation (redistribute.ts) if they are still
 * away: inactive, 'ausente', or offline since at least `graceMs` ago. Their membership row is locked first, the order
 * `setOperatorOnline` takes, so coming back online and this cannot interleave. Announces what moved.
 */
export async function handBackIfAway(deps: HandBackDeps, workspaceId: number, operatorId: number, graceMs: number): Promise<number[]> {
  const moved = await deps.knex.transaction(async (trx) => {
    const away = await trx('workspace_members as m').where({ 'm.workspace_id': workspaceId, 'm.operator_id': operatorId }).whereRaw(AWAY, [graceMs]).forUpdate().first('m.operator_id');
    return away ? redistributeFrom(trx, workspaceId, operatorId) : [];
  });
  await publishReassigned(deps, workspaceId, moved);
  return moved.map((m) => m.conversationId);
}

const pending = new Set<NodeJS.Timeout>();

/** After an agent went offline: look again once the grace period is over (in-process; the sweep covers a lost timer). */
export function scheduleHandBack(deps: HandBackDeps, workspaceId: number, operatorId: number, graceMs: number): void {
  const timer = setTimeout(() => {
    pending.delete(timer);
    handBackIfAway(deps, workspaceId, operatorId, graceMs).catch((err: unknown) => deps.logger.error({ err, workspaceId, operatorId }, 'hand-back after the grace period failed'));
  }, graceMs + 50);
  timer.unref();
  pending.add(timer);
}

/** Drops the timers not yet fired (process shutdown, tests). */
export function cancelScheduledHandBacks(): void {
  for (const t of pending) clearTimeout(t);
  pending.clear();
}

/**
 * Every agent who is away (see AWAY) and still holds unanswered round-robin calls gets them handed back.
 * The safety net for the in-process timers: run periodically by the worker. Returns the conversations moved.
 */
export async function handBackAbsentAgents(deps: HandBackDeps, graceMs: number = deps.config.presenceGraceMs): Promise<number[]> {
  const holders: { workspaceId: number; operatorId: number }[] = await deps.knex('calls as c')
    .join('customer_platforms as cp', (j) => j.on('cp.id', 'c.customer_platform_id').andOn('cp.current_call_id', 'c.id').andOn('cp.operator_id', 'c.auto_assigned_operator_id'))
    .join('workspace_members as m', (j) => j.on('m.workspace_id', 'c.workspace_id').andOn('m.operator_id', 'c.auto_assigned_operator_id'))
    .whereNotNull('c.auto_assigned_operator_id')
    .where('c.is_finished', false)
    .whereNull('c.first_response_at')
    .whereRaw(AWAY, [graceMs])
    .distinct('m.workspace_id', 'm.operator_id')
    .orderBy(['m.workspace_id', 'm.operator_id']);
  const moved: number[] = [];
  for (const h of holders) moved.push(...(await handBackIfAway(deps, h.workspaceId, h.operatorId, graceMs)));
  return moved;
}

/** The worker's periodic hand-back sweep (every `intervalMs`, never two at once) until stopped. */
export function startHandBackSweeper(deps: HandBackDeps, intervalMs = 30_000): PeriodicJob {
  return runPeriodically(deps.logger, 'hand-back sweep', intervalMs, async () => {
    const moved = await handBackAbsentAgents(deps);
    if (moved.length) deps.logger.info({ conversations: moved.length }, 'calls of absent agents handed back');
  });
}
