import { expect } from 'chai';
import { MEMBERSHIP_MAX_AGE_MS } from '../../api/auth/membershipCache';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { startSecondProcess, type SecondProcess } from '../auth/secondProcess';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * GET /api/workspace is served from the per-process token cache (api/auth/membershipCache.ts) under the
 * membership's rules: the process that commits a change serves it on its next request, another process
 * drops the row when the change's NOTIFY arrives, and one that hears nothing within MEMBERSHIP_MAX_AGE_MS.
 * B listens on the real channel; D on one nobody notifies (a process whose notifications are lost).
 */
describe('GET /api/workspace from the token cache', function () {
  this.timeout(60_000);
  let a: TestApi;
  let b: SecondProcess;
  let d: SecondProcess;
  const workspaceReads: string[] = [];
  const membershipReads: string[] = [];

  before(async () => {
    a = await startTestApi();
    b = await startSecondProcess(a);
    d = await startSecondProcess(a, { channel: 'balcao_auth_never_notified' });
    for (const knex of [b.knex, d.knex]) {
      knex.on('query', (q: { sql: string }) => {
        if (/from "workspaces"/.test(q.sql)) workspaceReads.push(q.sql);
        if (q.sql.includes('"o"."token_version" as "operator_version"')) membershipReads.push(q.sql);
      });
    }
  });
  after(async () => {
    await d?.close();
    await b?.close();
    await a?.close();
  });
  beforeEach(() => a.deps.rateLimiter.reset());

  async function owner(): Promise<{ ws: TestWorkspace; op: TestOperator }> {
    const ws = await makeWorkspace(a.deps.knex);
    return { ws, op: await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 10) };
  }

  async function nameOn(p: Pick<SecondProcess, 'request'>, token: string): Promise<string> {
    const res = await p.request('GET', '/api/workspace', { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.name as string;
  }

  /** The process serves the row from its cache from now on; answers a time before it read the row. */
  async function cached(p: SecondProcess, token: string): Promise<number> {
    const readBefore = Date.now();
    await nameOn(p, token);
    const reads = workspaceReads.length;
    await nameOn(p, token);
    expect(workspaceReads.length, 'the second GET reads no workspace row').to.equal(reads);
    return readBefore;
  }

  // First: no change has been made yet, so no notification can make B forget (and read again) meanwhile.
  it('32 requests that find nothing cached share one membership read and one workspace read', async () => {
    const { ws, op } = await owner();
    const [w, m] = [workspaceReads.length, membershipReads.length];
    const names = await Promise.all(Array.from({ length: 32 }, () => nameOn(b, op.token)));
    expect(names).to.deep.equal(Array.from({ length: 32 }, () => ws.name));
    expect(workspaceReads.length - w, 'workspace reads').to.equal(1);
    expect(membershipReads.length - m, 'membership reads').to.equal(1);
  });

  it('answers the second request without reading the workspace row, and each member gets their own workspace', async () => {
    const one = await owner();
    const two = await owner();
    await cached(b, one.op.token);
    await cached(b, two.op.token);
    expect(await nameOn(b, one.op.token)).to.equal(one.ws.name);
    expect(await nameOn(b, two.op.token)).to.equal(two.ws.name);
  });

  it('a PUT /api/workspace shows on the next GET of the process that made it, with no notification', async () => {
    const { op } = await owner();
    await cached(d, op.token);
    const res = await d.request('PUT', '/api/workspace', { token: op.token, body: { name: 'Nome novo no D' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await nameOn(d, op.token)).to.equal('Nome novo no D');
  });

  it('an avatar upload shows on the next GET of the process that made it, with no notification', async () => {
    const { op } = await owner();
    await cached(d, op.token);
    const form = new FormData();
    form.append('avatar', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const up = await fetch(`${d.url}/api/workspace/avatar`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${op.token}` } });
    expect(up.status).to.equal(201);
    const url = ((await up.json()) as { data: Array<{ fileName: string }> }).data[0].fileName;
    const res = await d.request('GET', '/api/workspace', { token: op.token });
    expect(res.body.data.avatar).to.equal(url);
  });

  it('a change made on A reaches B as its notification arrives, before the cached row ages out', async () => {
    const { op } = await owner();
    const readBefore = await cached(b, op.token);
    const res = await a.request('PUT', '/api/workspace', { token: op.token, body: { name: 'Mudou no A' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const agedOutAt = readBefore + MEMBERSHIP_MAX_AGE_MS;
    for (;;) {
      const name = await nameOn(b, op.token);
      const answeredAt = Date.now();
      if (name === 'Mudou no A') {
        expect(answeredAt, 'the new row while the old one was still trusted: the notification dropped it').to.be.below(agedOutAt);
        break;
      }
      if (answeredAt >= agedOutAt) throw new Error('B still served the old row when it aged out: no notification dropped it');
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('a change by SQL reaches a process that hears nothing within MEMBERSHIP_MAX_AGE_MS', async () => {
    const { ws, op } = await owner();
    const readBefore = await cached(d, op.token);
    await a.deps.knex('workspaces').where({ id: ws.id }).update({ name: 'Mudou por SQL' });
    const committedAt = Date.now();
    const stale = await nameOn(d, op.token);
    // Asked while D's row is still young (a slow machine may have taken longer): D heard nothing.
    if (Date.now() < readBefore + MEMBERSHIP_MAX_AGE_MS) expect(stale, 'D still trusts its row').to.equal(ws.name);
    // Every row D read with the old name started before committedAt, so none is trusted after the bound.
    const wait = committedAt + MEMBERSHIP_MAX_AGE_MS + 1 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    expect(await nameOn(d, op.token)).to.equal('Mudou por SQL');
  });

  it('a change rolled back leaves the cached row as it was, and a token cut still applies to the route', async () => {
    const { ws, op } = await owner();
    await cached(b, op.token);
    await a.deps.knex
      .transaction(async (trx) => {
        await trx('workspaces').where({ id: ws.id }).update({ name: 'Desfeito' });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await nameOn(b, op.token)).to.equal(ws.name);
    // The cached row never stands in for the membership check: a deactivated member is refused at once here.
    const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 3);
    await cached(b, agent.token);
    expect((await b.request('PUT', `/api/operator/${agent.id}`, { token: op.token, body: { isActive: false } })).status).to.equal(200);
    expect((await b.request('GET', '/api/workspace', { token: agent.token })).status).to.equal(401);
    expect(await nameOn(b, op.token)).to.equal(ws.name);
  });
});
