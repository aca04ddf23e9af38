import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex';
import { createApp } from '../../api/app';
import { MEMBERSHIP_MAX_AGE_MS, closeMembershipCache, membershipCacheFor } from '../../api/auth/membershipCache';
import { startTestApi, type TestApi } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace } from '../helpers/factories';

/**
 * Two api processes over one database: api A (the test api) makes the change, api B (its own knex, pool,
 * membership cache and listener) must refuse the old token on the very next request when the notification
 * arrives, and accept the member's new tokens. test/auth/tokenCuts.test.ts covers a B that hears nothing.
 */
describe('membership cache across api processes', () => {
  let a: TestApi;
  let knexB: Knex;
  let serverB: http.Server;
  let urlB: string;
  const membershipReads: string[] = [];

  before(async () => {
    a = await startTestApi();
    const { url } = await testDatabase();
    knexB = createKnex(url, { pool: { max: 4 } });
    knexB.on('query', (q: { sql: string }) => {
      if (q.sql.includes('"o"."token_version" as "operator_version"')) membershipReads.push(q.sql);
    });
    const handle = createApp({ ...a.deps, knex: knexB }).callback();
    serverB = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => serverB.listen(0, '127.0.0.1', resolve));
    urlB = `http://127.0.0.1:${(serverB.address() as AddressInfo).port}`;
    const cache = membershipCacheFor(knexB);
    for (const deadline = Date.now() + 20_000; !cache.listening() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    expect(cache.listening()).to.equal(true);
  });
  after(async () => {
    serverB.closeAllConnections();
    await new Promise<void>((resolve) => serverB.close(() => resolve()));
    await closeMembershipCache(knexB);
    await knexB.destroy();
    await a.close();
  });

  const onB = async (token: string) => (await fetch(`${urlB}/api/session`, { headers: { Authorization: `Bearer ${token}` } })).status;

  /**
   * Makes B hold the member in its cache: a second request reads no membership row. Answers a time before
   * B read the entry (the member is new to B), so the entry is trusted until at least that + MEMBERSHIP_MAX_AGE_MS.
   */
  async function cachedOnB(token: string): Promise<number> {
    const readBefore = Date.now();
    expect(await onB(token)).to.equal(200);
    const before = membershipReads.length;
    expect(await onB(token)).to.equal(200);
    expect(membershipReads.length, 'served from the cache').to.equal(before);
    return readBefore;
  }

  /**
   * B refuses the token while the entry it cached (see cachedOnB's `readBefore`) would still be trusted:
   * so the notification dropped it, not the age bound. NOTIFY is asynchronous, so the refusal may trail
   * A's answer by a moment; the budget is the whole age bound from the read, not a guess at how fast a
   * machine is (it was 1 s from the change, which a busy machine could miss).
   */
  async function cutOnB(token: string, readBefore: number): Promise<void> {
    const agedOutAt = readBefore + MEMBERSHIP_MAX_AGE_MS;
    for (;;) {
      const status = await onB(token);
      const answeredAt = Date.now();
      if (status === 401) {
        expect(answeredAt, 'refused while the cached entry was still trusted: the notification cut it').to.be.below(agedOutAt);
        return;
      }
      if (answeredAt >= agedOutAt) throw new Error('B still accepted the old token when its cached entry aged out: no notification cut it');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  for (const [what, body] of [
    ['a deactivation', { isActive: false }],
    ['a level change', { accessLevel: 2 }],
  ] as const) {
    it(`${what} made on A cuts the old token on B as its notification arrives`, async () => {
      const ws = await makeWorkspace(a.deps.knex);
      const admin = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 10);
      const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 3);
      const readBefore = await cachedOnB(agent.token);
      const res = await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await cutOnB(agent.token, readBefore);
      expect(await onB(admin.token)).to.equal(200);
    });
  }

  it('a password change made on A cuts the old tokens on B as its notification arrives, in every workspace', async () => {
    const ws1 = await makeWorkspace(a.deps.knex);
    const ws2 = await makeWorkspace(a.deps.knex);
    const op = await makeOperator(a.deps.knex, a.config.jwtSecret, ws1, 10);
    await a.deps.knex('workspace_members').insert({ workspaceId: ws2.id, operatorId: op.id, accessLevel: 10 });
    const { signAccessToken } = await import('../../api/auth/tokens');
    const token2 = await signAccessToken(a.config.jwtSecret, { operatorId: op.id, workspaceId: ws2.id, accessLevel: 10, operatorVersion: 0, memberVersion: 0 });
    const readBefore1 = await cachedOnB(op.token);
    const readBefore2 = await cachedOnB(token2);
    const res = await a.request('POST', '/api/operators/change-password', {
      token: op.token,
      body: { password: op.password, newPassword: 'trocada-123', confirmNewPassword: 'trocada-123' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await cutOnB(op.token, readBefore1);
    await cutOnB(token2, readBefore2);
    expect(await onB(res.body.data.workspace.token)).to.equal(200);
  });

  it('removing the member on A cuts the token on B as its notification arrives', async () => {
    const ws = await makeWorkspace(a.deps.knex);
    const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 3);
    const readBefore = await cachedOnB(agent.token);
    await a.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).delete();
    await cutOnB(agent.token, readBefore);
  });

  it('after a level change or a deactivate-then-reactivate made on A, the member’s new token works on B at once', async () => {
    const { signAccessToken } = await import('../../api/auth/tokens');
    const ws = await makeWorkspace(a.deps.knex);
    const admin = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 10);
    const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 6);
    const freshToken = async () => {
      const row = await a.deps.knex('workspace_members as m')
        .join('operators as o', 'o.id', 'm.operator_id')
        .where({ 'm.workspace_id': ws.id, 'm.operator_id': agent.id })
        .first('m.access_level', 'm.token_version as mv', 'o.token_version as ov');
      return signAccessToken(a.config.jwtSecret, { operatorId: agent.id, workspaceId: ws.id, accessLevel: row.accessLevel, operatorVersion: row.ov, memberVersion: row.mv });
    };
    const change = async (body: object) => {
      const res = await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    await cachedOnB(await freshToken());
    await change({ accessLevel: 3 });
    expect(await onB(await freshToken()), 'after the level change').to.equal(200);
    await cachedOnB(await freshToken());
    await change({ isActive: false });
    await change({ isActive: true });
    expect(await onB(await freshToken()), 'after deactivate-then-reactivate').to.equal(200);
  });

  it('a change rolled back leaves the cached member valid', async () => {
    const ws = await makeWorkspace(a.deps.knex);
    const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 3);
    await cachedOnB(agent.token);
    await a.deps.knex
      .transaction(async (trx) => {
        await trx('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).update({ isActive: false });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await onB(agent.token)).to.equal(200);
  });
});
