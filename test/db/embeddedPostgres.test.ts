import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { EMBEDDED_PG_SUPERUSER, startEmbeddedPostgres, type EmbeddedPostgres } from '../../api/db/embeddedPostgres';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function refused(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return 'connected';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('embedded PostgreSQL (the real server npm start runs)', function () {
  this.timeout(120_000);
  let dir: string;
  let dataDir: string;
  let server: EmbeddedPostgres | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-embedded-pg-'));
    // As root the server runs as another user, who must reach the cluster directory.
    chmodSync(dir, 0o755);
    dataDir = path.join(dir, 'pg');
    server = await startEmbeddedPostgres({ dataDir });
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is PostgreSQL 17 with pg_trgm available', async () => {
    const [{ server_version_num }] = await query<{ server_version_num: string }>(server!.url, 'show server_version_num');
    expect(Number(server_version_num)).to.be.at.least(170000);
    const ext = await query(server!.url, "select 1 from pg_available_extensions where name = 'pg_trgm'");
    expect(ext).to.have.length(1);
  });

  it('has unaccent and the portuguese stemmer the search configuration is built from (docs/search.md)', async () => {
    await query(server!.url, 'CREATE EXTENSION IF NOT EXISTS unaccent');
    await query(server!.url, 'CREATE TEXT SEARCH CONFIGURATION pg_temp_search_probe (COPY = pg_catalog.portuguese)');
    await query(server!.url, 'ALTER TEXT SEARCH CONFIGURATION pg_temp_search_probe ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem');
    const [row] = await query<{ v: string }>(server!.url, "select to_tsvector('pg_temp_search_probe', 'Tórtas da ação')::text as v");
    expect(row.v).to.equal(`'aca':3 'tort':1`);
    await query(server!.url, 'DROP TEXT SEARCH CONFIGURATION pg_temp_search_probe');
  });

  it('listens on 127.0.0.1 only, with no Unix socket', async () => {
    const [{ listen_addresses }] = await query<{ listen_addresses: string }>(server!.url, 'show listen_addresses');
    expect(listen_addresses).to.equal('127.0.0.1');
    const [{ unix_socket_directories }] = await query<{ unix_socket_directories: string }>(server!.url, 'show unix_socket_directories');
    expect(unix_socket_directories).to.equal('');
  });

  it('requires the generated password (no trust auth), kept 0600 beside the data', async () => {
    const passwordFile = `${dataDir}.password`;
    expect(statSync(passwordFile).mode & 0o777).to.equal(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password).to.have.length.greaterThan(20);
    expect(server!.url).to.include(encodeURIComponent(password));
    const port = server!.port;
    expect(await refused(`postgres://${EMBEDDED_PG_SUPERUSER}@127.0.0.1:${port}/postgres`)).to.match(/password/i);
    expect(await refused(`postgres://${EMBEDDED_PG_SUPERUSER}:wrong@127.0.0.1:${port}/postgres`)).to.match(/password authentication failed/);
    const hba = await query<{ auth_method: string }>(server!.adminUrl, 'select distinct auth_method from pg_hba_file_rules');
    expect(hba.map((r) => r.auth_method)).to.deep.equal(['scram-sha-256']);
  });

  it('delivers LISTEN/NOTIFY across connections (the membership cache relies on it)', async () => {
    const listener = new pg.Client({ connectionString: server!.url });
    await listener.connect();
    try {
      const got = new Promise<string | undefined>((resolve) => listener.on('notification', (m) => resolve(m.payload)));
      await listener.query('listen balcao_probe');
      await query(server!.url, "select pg_notify('balcao_probe', 'hello')");
      const payload = await Promise.race([got, new Promise<string>((r) => setTimeout(() => r('timeout'), 5000))]);
      expect(payload).to.equal('hello');
    } finally {
      await listener.end();
    }
  });

  it('runs as an unprivileged user that owns its data directory', () => {
    const uid = statSync(dataDir).uid;
    expect(statSync(dataDir).mode & 0o777).to.equal(0o700);
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const serverUid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    expect(serverUid, 'the server never runs as root').to.not.equal(0);
    expect(serverUid, 'the data directory belongs to the server user').to.equal(uid);
  });

  it('keeps data across a clean stop and restart, with the same password', async () => {
    await query(server!.url, 'create table kept (v text); insert into kept values (\'still here\')');
    const pidFile = path.join(dataDir, 'postmaster.pid');
    await server!.stop();
    expect(() => statSync(pidFile), 'a clean stop removes postmaster.pid').to.throw();
    server = await startEmbeddedPostgres({ dataDir });
    expect(await query(server.url, 'select v from kept')).to.deep.equal([{ v: 'still here' }]);
  });

  it('refuses a data directory another live process is serving, and takes over from one whose starter was killed', async () => {
    await server!.stop();
    server = undefined;
    // Another process (as npm start would) starts the server on the same directory and stays alive.
    const starter = spawn(process.execPath, ['--import', 'tsx', '-e', `
      import('${path.resolve('api/db/embeddedPostgres.ts')}').then(async ({ startEmbeddedPostgres }) => {
        const s = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
        console.log('ready ' + s.port);
        setInterval(() => undefined, 1000);
      });`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ready = await new Promise<string>((resolve, reject) => {
      starter.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve(c.toString()));
      starter.once('exit', (code) => reject(new Error(`starter exited ${code}`)));
    });
    expect(ready).to.match(/ready \d+/);
    const leftoverPid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let message = '';
    await startEmbeddedPostgres({ dataDir }).catch((err: Error) => (message = err.message));
    expect(message).to.match(/já está em uso por outro processo/);
    expect(() => process.kill(leftoverPid, 0), 'the live server was left alone').to.not.throw();

    // kill -9 of the starter: its server keeps running (own process group) until the next start takes over.
    starter.kill('SIGKILL');
    await new Promise((r) => starter.once('exit', r));
    expect(() => process.kill(leftoverPid, 0), 'the orphan is still running').to.not.throw();
    server = await startEmbeddedPostgres({ dataDir });
    expect(() => process.kill(leftoverPid, 0), 'the orphan was stopped').to.throw();
    expect(await query(server.url, 'select v from kept')).to.deep.equal([{ v: 'still here' }]);
  });
});
