import type { Knex } from 'knex';

/**
 * The task queue of the worker process that holds a QR line's live socket (docs/outbound.md "WhatsApp QR
 * lines"): the session activity writes it when its socket opens and clears it when the socket ends; sends,
 * number checks, deletes and typing indicators for the line are routed to that queue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_connections', (t) => {
    t.string('session_queue', 200);
    t.timestamp('session_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapp_connections', (t) => {
    t.dropColumn('session_queue');
    t.dropColumn('session_at');
  });
}
