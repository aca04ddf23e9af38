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
  keepTurnsUntilIdle(server, db);
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

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(size: number): void;
  reject(err: Error): void;
  onData(data: Uint8Array): void;
}

/** The fields of pglite-socket's query queue this module takes over (pinned version, checked at start). */
interface QueryQueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': ReadyForQuery outside a transaction block

/** True when a backend answer ends with ReadyForQuery('I'): the session is free for another connection. */
export function endsIdle(chunks: readonly Uint8Array[]): boolean {
  // The last six bytes of the answer, wherever the chunks were cut.
  const tail: number[] = [];
  for (let c = chunks.length - 1; c >= 0 && tail.length < 6; c--) {
    const chunk = chunks[c];
    for (let i = chunk.length - 1; i >= 0 && tail.length < 6; i--) tail.unshift(chunk[i]);
  }
  return tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[1] === 0 && tail[2] === 0 && tail[3] === 0 && tail[4] === 5 && tail[5] === IDLE;
}

/**
 * PGlite is one Postgres session shared by every socket connection. pglite-socket queues the connections'
 * protocol messages one at a time and keeps a connection's turn only while `isInTransaction()`, so the
 * Parse of one connection could run between another's Parse and Bind (seen as "bind message supplies 4
 * parameters, but prepared statement \"\" requires 2", or a result handed to the wrong query) when a cold
 * pool opened its connections under load: the first inbox load after `npm start`. Here a connection keeps
 * the session from its first message until PGlite answers ReadyForQuery with status idle: whole
 * extended-protocol cycles and whole transactions, never a piece of one. A connection that goes away
 * mid-turn gives the turn up. Test: test/db/embeddedPostgres.test.ts.
 */
function keepTurnsUntilIdle(server: PGLiteSocketServer, db: PGlite): void {
  const q = (server as unknown as { queryQueue?: QueryQueueInternals }).queryQueue;
  if (!q || !Array.isArray(q.queue) || typeof q.processQueue !== 'function' || typeof q.clearQueueForHandler !== 'function') {
    throw new Error('@electric-sql/pglite-socket changed its query queue: review api/db/embeddedPostgres.ts');
  }
  /** The connection that holds the session, or null when it is idle. */
  let owner: number | null = null;
  q.processQueue = async function processQueue(this: QueryQueueInternals): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length) {
        const i = owner === null ? 0 : this.queue.findIndex((m) => m.handlerId === owner);
        // The owner's next message has not arrived yet: wait for it (its enqueue runs this again).
        if (i === -1) break;
        const [next] = this.queue.splice(i, 1);
        owner = next.handlerId;
        this.lastHandlerId = next.handlerId;
        const answer: Uint8Array[] = [];
        let size = 0;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(next.message, {
              onRawData: (data: Uint8Array) => {
                size += data.length;
                answer.push(data);
                next.onData(data);
              },
            }),
          );
        } catch (err) {
          owner = null;
          next.reject(err as Error);
          continue;
        }
        if (endsIdle(answer)) owner = null;
        next.resolve(size);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (owner === handlerId) {
      owner = null;
      void q.processQueue();
    }
  };
}
