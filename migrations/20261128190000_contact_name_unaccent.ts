import type { Knex } from 'knex';

/**
 * Contact names are searched with accents folded (issue 28, docs/search.md): `joao` finds `João`. The
 * condition is `balcao_unaccent(name) ILIKE balcao_unaccent(pattern)` (api/models/contactMatch.ts), so the
 * name's trigram index moves onto that expression. Only where pg_trgm exists (as in 20261122100300); built
 * CONCURRENTLY outside a transaction, so a large customers table keeps taking writes.
 */
export const config = { transaction: false };

async function hasTrigrams(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
  return rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  if (!(await hasTrigrams(knex))) return;
  // A failed concurrent build leaves an INVALID index: drop first, so a re-run builds it again.
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS customers_name_unaccent_trgm_idx');
  await knex.raw('CREATE INDEX CONCURRENTLY customers_name_unaccent_trgm_idx ON customers USING gin (balcao_unaccent(name) gin_trgm_ops)');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS customers_name_trgm_idx');
}

export async function down(knex: Knex): Promise<void> {
  if (!(await hasTrigrams(knex))) return;
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS customers_name_trgm_idx ON customers USING gin (name gin_trgm_ops)');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS customers_name_unaccent_trgm_idx');
}
