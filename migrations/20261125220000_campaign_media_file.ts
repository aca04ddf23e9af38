import type { Knex } from 'knex';

/**
 * A campaign's optional attachment (issue 15, docs/campaigns.md "Attachment"): the uploaded file as it was
 * when the campaign was created, `{key, fileName, mime, size}` from stored_files (never from the client).
 * QR lines send it with the message as caption; Cloud lines as the template's media header.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.jsonb('media_file');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('media_file');
  });
}
