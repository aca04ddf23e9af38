import type { Knex } from 'knex';

/**
 * Why a channel is in its status (issue 25): a disconnected line says what the user must do — read the QR
 * again, restart the line, give a new token — and a QR line reconnecting with backoff says it is
 * reconnecting (api/channels/channelStatus.ts). Null: the status says it all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channels', (t) => {
    t.text('status_reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channels', (t) => {
    t.dropColumn('status_reason');
  });
}
