import type { Knex } from 'knex';

/**
 * Two-factor login (issue 33, docs/two-factor.md).
 * - operator_two_factor: one row per operator who started or finished the setup. `secret_sealed` is the
 *   TOTP secret sealed with the channel-secrets key (api/channels/secretBox.ts); `enabled_at` is null while
 *   the first code has not been confirmed yet; `last_used_step` is the RFC 6238 time step of the last code
 *   accepted, so a code is never accepted twice (nor an older one).
 * - operator_backup_codes: the 10 single-use recovery codes, argon2id hashes only.
 * - two_factor_challenges: the step between a right password and a session (a code to type, or a setup to
 *   finish when the workspace requires it), as a SHA-256 hash of an opaque token, short-lived, counting
 *   wrong codes.
 * - workspaces.require_two_factor: the owner's switch that makes every member set it up.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('operator_two_factor', (t) => {
    t.integer('operator_id').primary().references('operators.id').onDelete('CASCADE');
    t.text('secret_sealed').notNullable();
    t.timestamp('enabled_at', { useTz: true });
    t.bigInteger('last_used_step');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('operator_backup_codes', (t) => {
    t.increments('id');
    t.integer('operator_id').notNullable().references('operators.id').onDelete('CASCADE');
    t.text('code_hash').notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['operator_id'], 'operator_backup_codes_operator_idx');
  });

  await knex.schema.createTable('two_factor_challenges', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('operator_id').notNullable().references('operators.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('step', 10).notNullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'operator_id'], 'two_factor_challenges_workspace_operator_idx');
  });
  await knex.raw("ALTER TABLE two_factor_challenges ADD CONSTRAINT two_factor_challenges_step_check CHECK (step IN ('code', 'setup'))");

  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('require_two_factor').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('require_two_factor');
  });
  await knex.schema.dropTable('two_factor_challenges');
  await knex.schema.dropTable('operator_backup_codes');
  await knex.schema.dropTable('operator_two_factor');
}
