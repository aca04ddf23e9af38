import type { Knex } from 'knex';

/**
 * Scheduled report exports (issue 27, docs/reports.md "Scheduled exports"): a report mailed weekly or
 * monthly to chosen members of the workspace by a Temporal Schedule `report-schedule:{id}`. The row is the
 * source of truth: the schedule's run reads it (deleted row: nothing is sent).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_schedules', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('created_by').references('operators.id').onDelete('SET NULL');
    t.text('kind').notNullable();
    t.text('frequency').notNullable();
    // Operator ids of members of the workspace (checked inside the workspace when written and again at each run).
    t.specificType('recipients', 'integer[]').notNullable();
    // The report's filters (channels, groups, agents, tags, frequency of its rows, businessHours).
    t.jsonb('query').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX report_schedules_workspace_idx ON report_schedules (workspace_id, id)');
  await knex.raw("ALTER TABLE report_schedules ADD CONSTRAINT report_schedules_kind_check CHECK (kind IN ('conversations', 'team', 'tags', 'customers'))");
  await knex.raw("ALTER TABLE report_schedules ADD CONSTRAINT report_schedules_frequency_check CHECK (frequency IN ('weekly', 'monthly'))");
  await knex.raw('ALTER TABLE report_schedules ADD CONSTRAINT report_schedules_recipients_check CHECK (cardinality(recipients) BETWEEN 1 AND 50)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_schedules');
}
