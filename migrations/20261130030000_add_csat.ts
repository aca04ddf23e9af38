import type { Knex } from 'knex';

/**
 * CSAT after 'Resolver' (issue 33, docs/csat.md).
 * - channels.csat: the channel's survey settings (`{enabled, scale, question, thanks, template}`), null = off.
 * - calls.csat_*: the survey of one call, stored on the call: `csat_state` 'sent' (the question went out),
 *   'skipped' (not sent, `csat_note` says why) or 'answered' (`csat_rating` 1–5, optional `csat_comment`,
 *   `csat_answered_at`); `csat_message_id` is the question's message. Reports read the answered ones
 *   through `calls_csat_answered_idx`
 *   (answers by day) and `calls_csat_requested_idx` (questions sent by day, for the answer rate).
 * - customer_platforms.csat_call_id / csat_until: the resolved call whose question awaits an answer, and
 *   until when. Read with the conversation row the inbound pipeline already locks, so spotting an answer
 *   costs no extra statement; the pending question only counts while the conversation is still resolved
 *   on that call (`current_call_id = csat_call_id`): any new call ends it without a write.
 */
export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await knex.schema.alterTable('channels', (t) => {
    t.jsonb('csat');
  });
  await knex.schema.alterTable('calls', (t) => {
    t.string('csat_state', 10);
    t.timestamp('csat_requested_at', { useTz: true });
    t.bigInteger('csat_message_id');
    t.smallint('csat_rating');
    t.text('csat_comment');
    t.timestamp('csat_answered_at', { useTz: true });
    t.string('csat_note', 300);
  });
  await sql("ALTER TABLE calls ADD CONSTRAINT calls_csat_state_check CHECK (csat_state IN ('sent', 'skipped', 'answered'))");
  await sql("ALTER TABLE calls ADD CONSTRAINT calls_csat_rating_check CHECK (csat_rating BETWEEN 1 AND 5 AND csat_answered_at IS NOT NULL AND csat_state = 'answered' OR csat_rating IS NULL)");
  await sql('CREATE INDEX calls_csat_answered_idx ON calls (workspace_id, csat_answered_at) WHERE csat_rating IS NOT NULL');
  await sql('CREATE INDEX calls_csat_requested_idx ON calls (workspace_id, csat_requested_at) WHERE csat_requested_at IS NOT NULL');
  await knex.schema.alterTable('customer_platforms', (t) => {
    t.bigInteger('csat_call_id');
    t.timestamp('csat_until', { useTz: true });
  });
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_csat_call_id_foreign FOREIGN KEY (id, csat_call_id) REFERENCES calls (customer_platform_id, id) ON DELETE SET NULL (csat_call_id)');
  await sql('ALTER TABLE webhooks DROP CONSTRAINT webhooks_subscriptions_check');
  await sql("ALTER TABLE webhooks ADD CONSTRAINT webhooks_subscriptions_check CHECK (subscriptions <@ ARRAY['message:received', 'session:status:changed', 'person:changed', 'csat:received']::text[])");
}

export async function down(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await sql("UPDATE webhooks SET subscriptions = array_remove(subscriptions, 'csat:received')");
  await sql('ALTER TABLE webhooks DROP CONSTRAINT webhooks_subscriptions_check');
  await sql("ALTER TABLE webhooks ADD CONSTRAINT webhooks_subscriptions_check CHECK (subscriptions <@ ARRAY['message:received', 'session:status:changed', 'person:changed']::text[])");
  await sql('ALTER TABLE customer_platforms DROP CONSTRAINT IF EXISTS customer_platforms_csat_call_id_foreign');
  await knex.schema.alterTable('customer_platforms', (t) => {
    t.dropColumn('csat_call_id');
    t.dropColumn('csat_until');
  });
  await sql('DROP INDEX IF EXISTS calls_csat_answered_idx');
  await sql('DROP INDEX IF EXISTS calls_csat_requested_idx');
  await sql('ALTER TABLE calls DROP CONSTRAINT IF EXISTS calls_csat_rating_check');
  await sql('ALTER TABLE calls DROP CONSTRAINT IF EXISTS calls_csat_state_check');
  await knex.schema.alterTable('calls', (t) => {
    t.dropColumn('csat_state');
    t.dropColumn('csat_requested_at');
    t.dropColumn('csat_message_id');
    t.dropColumn('csat_rating');
    t.dropColumn('csat_comment');
    t.dropColumn('csat_answered_at');
    t.dropColumn('csat_note');
  });
  await knex.schema.alterTable('channels', (t) => {
    t.dropColumn('csat');
  });
}
