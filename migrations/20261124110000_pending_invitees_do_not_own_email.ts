import type { Knex } from 'knex';

/**
 * An invited person who has not completed the registration (operators.verification_level 0, no password)
 * is a pending member of the inviting workspace, not the owner of the address: only registered operators
 * (level 1 or 2) are unique per lowercased e-mail, so the address's owner can still sign up and reset a
 * password while invitations are pending (issue 10 item 9). Each workspace's invitation has its own pending
 * row, found by workspace and address (docs/auth.md "Invitations").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX operators_email_unique');
  await knex.raw('CREATE UNIQUE INDEX operators_email_unique ON operators (lower(email)) WHERE verification_level > 0');
  await knex.raw('CREATE INDEX operators_pending_email_idx ON operators (lower(email)) WHERE verification_level = 0');
}

/** Going back, an address keeps one row: pending rows that share it with an account or an older pending row go. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM operators p WHERE p.verification_level = 0 AND EXISTS (
    SELECT 1 FROM operators o WHERE lower(o.email) = lower(p.email) AND o.id <> p.id AND (o.verification_level > 0 OR o.id < p.id))`);
  await knex.raw('DROP INDEX operators_pending_email_idx');
  await knex.raw('DROP INDEX operators_email_unique');
  await knex.raw('CREATE UNIQUE INDEX operators_email_unique ON operators (lower(email))');
}
