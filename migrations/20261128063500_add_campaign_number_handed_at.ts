import type { Knex } from 'knex';

/**
 * When a campaign number was handed to the provider (issue 25, docs/campaigns.md "Exactly once"): written
 * right before the call, after the line's slot. A number a crash leaves `sending` is failed "pode ter sido
 * entregue" only when it has this time; without it the call never started and the number goes back to
 * `pending`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaign_numbers', (t) => {
    t.timestamp('handed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaign_numbers', (t) => {
    t.dropColumn('handed_at');
  });
}
