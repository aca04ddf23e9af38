import type { Knex } from 'knex';
import { CALLS_ASSIGN_PROTOCOL } from './20261122100300_create_conversations';

/**
 * Protocols stay gapless per workspace, but the counter row is taken at commit instead of at the call's
 * insert (docs/data-model.md "Protocol numbers"). Taken at the insert, its lock was held for the rest of
 * the inbound transaction, so every first contact of a workspace waited for the previous one to commit
 * (bench/README.md, ingest). Now a deferred constraint trigger numbers the call when its transaction
 * commits, or earlier where the transaction needs the number (`SET CONSTRAINTS calls_protocol_at_commit
 * IMMEDIATE`, done before a webhook payload is built). A protocol given explicitly still moves the counter
 * past it at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE calls ALTER COLUMN protocol DROP NOT NULL');
  await knex.raw(`CREATE OR REPLACE FUNCTION calls_assign_protocol() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.protocol IS NOT NULL THEN
    INSERT INTO call_protocol_counters AS c (workspace_id, last_value) VALUES (NEW.workspace_id, NEW.protocol)
    ON CONFLICT (workspace_id) DO UPDATE SET last_value = GREATEST(c.last_value, EXCLUDED.last_value);
  END IF;
  RETURN NEW;
END $$`);
  await knex.raw(`CREATE FUNCTION calls_assign_protocol_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_value bigint;
BEGIN
  -- A call deleted (or numbered) before its transaction ended takes no number: no gap.
  PERFORM 1 FROM calls WHERE id = NEW.id AND protocol IS NULL;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO call_protocol_counters AS c (workspace_id, last_value) VALUES (NEW.workspace_id, 1)
  ON CONFLICT (workspace_id) DO UPDATE SET last_value = c.last_value + 1
  RETURNING c.last_value INTO next_value;
  UPDATE calls SET protocol = next_value WHERE id = NEW.id;
  RETURN NULL;
END $$`);
  await knex.raw(
    'CREATE CONSTRAINT TRIGGER calls_protocol_at_commit AFTER INSERT ON calls DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.protocol IS NULL) EXECUTE FUNCTION calls_assign_protocol_at_commit()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS calls_protocol_at_commit ON calls');
  await knex.raw('DROP FUNCTION IF EXISTS calls_assign_protocol_at_commit()');
  await knex.raw(`CREATE OR REPLACE FUNCTION ${CALLS_ASSIGN_PROTOCOL}`);
  await knex.raw('ALTER TABLE calls ALTER COLUMN protocol SET NOT NULL');
}
