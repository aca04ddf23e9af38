/** `npm run migrate [-- down]`: applies (or rolls back the last batch of) migrations on DATABASE_URL. */
import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { migrateLatest, migrationConfig } from '../api/db/migrate';

const config = loadConfig();
const knex = createKnex(config.databaseUrl, { pool: { max: 1 } });
try {
  if (process.argv[2] === 'down') {
    const [, files] = (await knex.migrate.rollback(migrationConfig)) as [number, string[]];
    console.log(files.length ? `Revertidas: ${files.join(', ')}` : 'Nada a reverter.');
  } else {
    const applied = await migrateLatest(knex);
    console.log(applied.length ? `Aplicadas: ${applied.join(', ')}` : 'Banco já atualizado.');
  }
} finally {
  await knex.destroy();
}
