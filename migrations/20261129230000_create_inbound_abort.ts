import type { Knex } from 'knex';

/**
 * The inbound statement (api/inbound/ingestStatement.ts) stores a message, its event, and for a first
 * contact the contact, conversation and call, in one autocommitted statement. When its writes do not add up
 * (the event was taken but the conversation or the message lost a race to another transaction) it calls
 * this, which aborts the whole statement: nothing it wrote stays, and the api takes the transaction path.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION inbound_abort(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'BLC01', MESSAGE = reason;
END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS inbound_abort(text)');
}
