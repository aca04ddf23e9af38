import { expect } from 'chai';
import net from 'node:net';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import { endsIdle, startEmbeddedPostgres, type EmbeddedPostgres } from '../../api/db/embeddedPostgres';

/** A bare wire-protocol connection: writes frontend messages, collects the backend's bytes. */
async function rawConnection(url: string): Promise<{ send(buf: Buffer): void; received(): Buffer; close(): void }> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(serialize.startup({ user: 'postgres', database: 'postgres' }));
  const conn = { send: (buf: Buffer) => socket.write(buf), received: () => Buffer.concat(chunks), close: () => socket.destroy() };
  await until(() => endsIdle([conn.received()]));
  chunks.length = 0;
  return conn;
}

async function until(probe: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('embedded PostgreSQL (PGlite over the wire protocol, what npm start runs)', function () {
  this.timeout(60_000);
  let server: EmbeddedPostgres;
  const clients: pg.Client[] = [];

  before(async () => {
    server = await startEmbeddedPostgres({ port: 0, maxConnections: 32 });
    for (let i = 0; i < 12; i++) {
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      clients.push(c);
    }
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await server?.stop();
  });

  it('answers parameterized queries of many connections at once, each with its own statement and result', async () => {
    // Different parameter counts per connection: an interleaved Parse of another connection would make a
    // Bind fail ("bind message supplies N parameters") or return another query's rows.
    const failures: string[] = [];
    await Promise.all(
      clients.map(async (c, i) => {
        for (let j = 0; j < 40; j++) {
          const params = Array.from({ length: i + 1 }, (_, k) => i * 1000 + j * 10 + k);
          const sql = `select ${params.map((_, k) => `$${k + 1}::int`).join(' + ')} as total, ${i} as conn`;
          try {
            const { rows } = await c.query(sql, params);
            const expected = { total: params.reduce((a, b) => a + b, 0), conn: i };
            if (JSON.stringify(rows[0]) !== JSON.stringify(expected)) failures.push(`conn ${i}: ${JSON.stringify(rows[0])}`);
          } catch (err) {
            failures.push(`conn ${i}: ${(err as Error).message}`);
          }
        }
      }),
    );
    expect(failures.slice(0, 5)).to.deep.equal([]);
  });

  it('answers right while a cold pool opens its connections under load', async () => {
    for (let round = 0; round < 5; round++) {
      const pool = new pg.Pool({ connectionString: server.url, max: 10 });
      const failures: string[] = [];
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const n = (i % 4) + 1;
          const params = Array.from({ length: n }, (_, k) => i * 10 + k);
          try {
            const { rows } = await pool.query(`select ${params.map((_, k) => `$${k + 1}::int`).join(' + ')} as total, ${n} as n`, params);
            const expected = { total: params.reduce((a, b) => a + b, 0), n };
            if (JSON.stringify(rows[0]) !== JSON.stringify(expected)) failures.push(`${i}: ${JSON.stringify(rows[0])}`);
          } catch (err) {
            failures.push(`${i}: ${(err as Error).message}`);
          }
        }),
      );
      await pool.end();
      expect(failures.slice(0, 5), `round ${round}`).to.deep.equal([]);
    }
  });

  it('runs a connection\'s extended-protocol cycle whole: another connection\'s Parse waits for its Sync', async () => {
    const a = await rawConnection(server.url);
    const b = await rawConnection(server.url);
    try {
      // a: Parse of the unnamed statement with 2 parameters, then nothing yet (no Sync).
      a.send(serialize.parse({ text: 'select $1::int + $2::int as total', types: [] }));
      await until(() => a.received().length > 0);
      // b: a whole cycle with 1 parameter on the same (single) PGlite session.
      b.send(Buffer.concat([serialize.parse({ text: 'select $1::int as one', types: [] }), serialize.bind({ values: ['7'] }), serialize.execute(), serialize.sync()]));
      await new Promise((r) => setTimeout(r, 200));
      // a goes on with its own statement: interleaved, its Bind would meet b's 1-parameter statement.
      a.send(Buffer.concat([serialize.bind({ values: ['2', '3'] }), serialize.execute(), serialize.sync()]));
      await until(() => endsIdle([a.received()]) && endsIdle([b.received()]));
      const errorOf = (buf: Buffer) => (buf.includes(Buffer.from('bind message supplies')) ? buf.toString('latin1') : '');
      expect(errorOf(a.received()), 'a').to.equal('');
      expect(errorOf(b.received()), 'b').to.equal('');
      // DataRow of a: one column "5"; of b: "7".
      expect(a.received().includes(Buffer.from([0x44]))).to.equal(true);
      expect(a.received().toString('latin1')).to.contain('\u0000\u0000\u0000\u00015');
      expect(b.received().toString('latin1')).to.contain('\u0000\u0000\u0000\u00017');
    } finally {
      a.close();
      b.close();
    }
  });

  it('tells an idle ReadyForQuery from one inside a transaction, across chunk cuts', () => {
    const ready = (status: string) => Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);
    expect(endsIdle([Buffer.from('xyz'), ready('I')])).to.equal(true);
    expect(endsIdle([Buffer.concat([Buffer.from('abc'), ready('I').subarray(0, 3)]), ready('I').subarray(3)])).to.equal(true);
    expect(endsIdle([ready('T')])).to.equal(false);
    expect(endsIdle([ready('E')])).to.equal(false);
    expect(endsIdle([Buffer.from('1'), Buffer.from([0, 0, 0, 4])])).to.equal(false);
    expect(endsIdle([])).to.equal(false);
  });

  it('keeps a transaction to its connection while others query', async () => {
    await clients[0].query('create table if not exists t (v int)');
    await clients[0].query('begin');
    await clients[0].query('insert into t values ($1)', [1]);
    const outside = clients[1].query('select count(*)::int as n from t where v = $1', [1]);
    await clients[0].query('commit');
    expect((await outside).rows[0].n).to.equal(1);
  });
});
