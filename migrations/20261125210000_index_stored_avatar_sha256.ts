import type { Knex } from 'knex';

/**
 * Pictures copied from Meta (page, Instagram account and customer profile pictures, docs/channels/meta.md
 * "Pictures") are kept once per workspace and content: the copy looks for an avatar of the workspace with the
 * same sha256 before storing a new one, so the daily profile lookup does not pile up copies of an unchanged
 * picture. Only avatar keys (`av_…`) are indexed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX IF NOT EXISTS stored_files_avatar_sha256_idx ON stored_files (workspace_id, sha256) WHERE key LIKE 'av\\_%'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS stored_files_avatar_sha256_idx');
}
