import type { Knex } from 'knex';

/**
 * The last run of each periodic sweep across every process of a cluster (api/jobs/leases.ts): a process
 * runs a sweep only when it moves `ran_at` forward, which one process at a time can do per interval.
 * Not tenant data: one row per job name.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('periodic_job_runs', (t) => {
    t.text('name').primary();
    t.text('node').notNullable();
    t.timestamp('ran_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('periodic_job_runs');
}
