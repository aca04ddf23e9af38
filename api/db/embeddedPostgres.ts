import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite served over the Postgres wire protocol, so the app only ever speaks `pg` (DESIGN.md §1).
 * dataDir undefined: in memory.
 */
export async function startEmbeddedPostgres(options: { dataDir?: string; port: number; host?: string; maxConnections?: number }): Promise<EmbeddedPostgres> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm backs the contact search indexes (the migration creates it when the server offers it).
  const db = await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
  const host = options.host ?? '127.0.0.1';
  const server = new PGLiteSocketServer({ db, port: options.port, host, maxConnections: options.maxConnections ?? 16 });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.split(':').pop() ?? options.port);
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
