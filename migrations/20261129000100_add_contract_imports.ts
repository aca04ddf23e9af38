import type { Knex } from 'knex';

/**
 * Contract imports (docs/contracts.md): each contract row is one imported file, stored in stored_files
 * under `path` (the storage key) and processed by the `contract-import:` workflow. `import_id` groups the
 * files of one import (the workflow's id), `file_name` is the name the file came with, `error` the pt-BR
 * reason a file failed, and `replaced_by_id` the contract with the same number that overwrote this one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contracts', (t) => {
    t.uuid('import_id');
    t.string('file_name', 200);
    t.string('error', 1000);
    t.integer('replaced_by_id');
  });
  await knex.raw('CREATE UNIQUE INDEX contracts_workspace_id_id_unique ON contracts (workspace_id, id)');
  await knex.raw(
    'ALTER TABLE contracts ADD CONSTRAINT contracts_replaced_by_id_foreign FOREIGN KEY (workspace_id, replaced_by_id) REFERENCES contracts (workspace_id, id) ON DELETE SET NULL (replaced_by_id)',
  );
  // The start-up reconcile looks for imports whose files are still being processed.
  await knex.raw("CREATE INDEX contracts_workspace_import_idx ON contracts (workspace_id, import_id) WHERE status = 'created'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS contracts_workspace_import_idx');
  await knex.raw('ALTER TABLE contracts DROP CONSTRAINT IF EXISTS contracts_replaced_by_id_foreign');
  await knex.raw('DROP INDEX IF EXISTS contracts_workspace_id_id_unique');
  await knex.schema.alterTable('contracts', (t) => {
    t.dropColumn('replaced_by_id');
    t.dropColumn('error');
    t.dropColumn('file_name');
    t.dropColumn('import_id');
  });
}
