import type { Knex } from 'knex';

/**
 * SPEC §1: one trial per unique business e-mail. A row per address that got a trial, keyed by the
 * normalised address (lowercased, "+tag" dropped: api/workspaces/trialGrants.ts), kept when the workspace
 * or the operator goes, so the trial is not given again. The workspaces that already had a trial are
 * recorded under their owner's address, oldest first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('trial_grants', (t) => {
    t.string('email_key', 254).primary();
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.integer('workspace_id').references('workspaces.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`INSERT INTO trial_grants (email_key, operator_id, workspace_id, created_at)
    SELECT DISTINCT ON (k.email_key) k.email_key, o.id, s.workspace_id, s.created_at
    FROM subscriptions s
    JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.access_level = 10
    JOIN operators o ON o.id = m.operator_id AND o.verification_level > 0
    CROSS JOIN LATERAL (SELECT lower(regexp_replace(o.email, '\\+[^@]*@', '@')) AS email_key) k
    WHERE s.license = 'trial'
    ORDER BY k.email_key, s.created_at, s.id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('trial_grants');
}
