import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { rebuildReports } from '../api/reports/rebuild';

/**
 * One-off: recomputes the report facts and daily rows of every workspace (or of the ids given) from their
 * calls, bot sessions and messages (docs/reports.md). Run after changing a workspace's time zone, or to
 * repair figures: `npx tsx scripts/reportsBackfill.ts [workspaceId ...]`.
 */
async function main(): Promise<void> {
  const knex = createKnex(loadConfig().databaseUrl);
  try {
    const given = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const ids: number[] = given.length ? given : await knex('workspaces').pluck('id');
    for (const id of ids) {
      const { facts } = await rebuildReports(knex, id);
      console.log(`workspace ${id}: ${facts} facts`);
    }
  } finally {
    await knex.destroy();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
