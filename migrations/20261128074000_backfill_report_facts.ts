import type { Knex } from 'knex';
import { rebuildReports } from '../api/reports/rebuild';

/**
 * Reports (issue 27, docs/reports.md): an upgraded installation sees its past. Every workspace with calls
 * gets its facts and daily rows recomputed from its calls, bot sessions and messages, as rebuildReports
 * does (the same one-off is `npx tsx scripts/reportsBackfill.ts`). A fresh database has nothing to do.
 */
export async function up(knex: Knex): Promise<void> {
  const workspaces: number[] = await knex('calls').distinct('workspace_id').pluck('workspace_id');
  for (const workspaceId of workspaces) await rebuildReports(knex, workspaceId);
}

export async function down(knex: Knex): Promise<void> {
  // The figures of history are derived data: going back leaves them as the triggers would have (none).
  await knex('report_facts').delete();
  await knex('report_daily').delete();
}
