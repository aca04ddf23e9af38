import type { Knex } from 'knex';

/**
 * The kanban's funnels (docs/kanban.md): a workspace defines funnels ("Encomendas", "Vendas") with ordered,
 * coloured stages; a conversation is in at most one stage (customer_platforms.stage_id), kept across
 * resolve and reopen because it describes the customer's journey, not one call. Deleting a stage (or its
 * funnel) takes its conversations out of the funnel (SET NULL), never deletes them.
 *
 * customer_platforms_stage_idx is the keyset index of a stage's column, shaped like the inbox's
 * (workspace_id, key, is_finished, last_message_at DESC, id DESC) and partial: conversations in no stage —
 * most of a large workspace — are not in it, so the message path's update of last_message_at writes into it
 * only for conversations in a funnel. It also serves the SET NULL of a stage's deletion.
 */
export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await knex.schema.createTable('funnels', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('name', 80).notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'id'], { indexName: 'funnels_workspace_id_unique' });
  });
  await knex.schema.createTable('funnel_stages', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('funnel_id').notNullable();
    t.string('name', 60).notNullable();
    t.string('color', 7).notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'id'], { indexName: 'funnel_stages_workspace_id_unique' });
  });
  await sql('ALTER TABLE funnel_stages ADD CONSTRAINT funnel_stages_funnel_id_foreign FOREIGN KEY (workspace_id, funnel_id) REFERENCES funnels (workspace_id, id) ON DELETE CASCADE');
  await sql("ALTER TABLE funnel_stages ADD CONSTRAINT funnel_stages_color_check CHECK (color ~ '^#[0-9A-Fa-f]{6}$')");
  await sql('CREATE INDEX funnel_stages_funnel_idx ON funnel_stages (funnel_id, position)');

  await sql('ALTER TABLE customer_platforms ADD COLUMN stage_id integer');
  await sql(
    'ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_stage_id_foreign FOREIGN KEY (workspace_id, stage_id) REFERENCES funnel_stages (workspace_id, id) ON DELETE SET NULL (stage_id)',
  );
  await sql('CREATE INDEX customer_platforms_stage_idx ON customer_platforms (workspace_id, stage_id, is_finished, last_message_at DESC, id DESC) WHERE stage_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS customer_platforms_stage_idx');
  await knex.raw('ALTER TABLE customer_platforms DROP CONSTRAINT IF EXISTS customer_platforms_stage_id_foreign');
  await knex.raw('ALTER TABLE customer_platforms DROP COLUMN IF EXISTS stage_id');
  await knex.schema.dropTableIfExists('funnel_stages');
  await knex.schema.dropTableIfExists('funnels');
}
