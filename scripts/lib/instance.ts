import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Publisher } from '../../api/realtime/publisher';

/**
 * The database of the `npm start` instance whose data is in `dataDir`, for scripts run beside it:
 * DATABASE_URL when set, else its embedded PostgreSQL while it runs (the password `npm start` wrote to
 * DATA_DIR/pg.password, port EMBEDDED_PG_PORT); undefined when there is neither.
 */
export function instanceDatabaseUrl(dataDir: string): string | undefined {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const passwordFile = path.join(dataDir, 'pg.password');
  if (!existsSync(passwordFile)) return undefined;
  const password = readFileSync(passwordFile, 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${Number(process.env.EMBEDDED_PG_PORT ?? 54329)}/balcao`;
}

/** For scripts that write through the app's commands while nobody is connected: the events they publish go nowhere. */
export const quietPublisher: Publisher = { publish: async () => true, async close() {} };
