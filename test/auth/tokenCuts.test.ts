import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { MEMBERSHIP_MAX_AGE_MS } from '../../api/auth/membershipCache';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { linkParams, waitForMail } from './helpers';
import { startSecondProcess, type SecondProcess } from './secondProcess';

/**
 * Token cuts that do not rely on LISTEN/NOTIFY (issue 10 items 2 and 3). Process D's membership cache
 * LISTENs on a channel nobody notifies, so it never hears a change, like the embedded PGlite did:
 * - a change D commits itself cuts the old token on D at once (D forgets its entry after the commit);
 * - a change another process commits (A, or SQL by hand) cuts it on D within MEMBERSHIP_MAX_AGE_MS;
 * - the member's new tokens work on D at once either way (a stale entry never refuses a token);
 * on HTTP and on MQTT CONNECT (same check, api/realtime/access.ts).
 */
describe('token cuts when notifications are lost', function () {
  this.timeout(60_000);
  let a: TestApi;
  let d: SecondProcess;

  before(async () => {
    a = await startTestApi();
    d = await startSecondProcess(a, { channel: 'balcao_auth_never_notified' });
  });
  after(async () => {
    await d?.close();
    await a?.close();
  });
  beforeEach(() => a.deps.rateLimiter.reset());
  afterEach(() => d.clients.endAll());

  async function member(level: 3 | 6 = 3): Promise<{ admin: TestOperator; agent: TestOperator }> {
    const ws = await makeWorkspace(a.deps.knex);
    const admin = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, 10);
    const agent = await makeOperator(a.deps.knex, a.config.jwtSecret, ws, level);
    return { admin, agent };
  }

  const mqttAccepts = async (op: TestOperator, token: string): Promise<boolean> => {
    let client: MqttClient | undefined;
    try {
      client = await d.clients.connect(String(op.id), token);
      return true;
    } catch {
      return false;
    } finally {
      await client?.endAsync(true).catch(() => undefined);
    }
  };

  /** D serves the token from its cache from now on (HTTP and MQTT CONNECT both pass). */
  async function primeOnD(op: TestOperator, token = op.token): Promise<void> {
    expect(await d.status(token)).to.equal(200);
    expect(await mqttAccepts(op, token), 'CONNECT with the valid token').to.equal(true);
    expect(await d.status(token)).to.equal(200);
  }

  async function expectCutOnDAtOnce(op: TestOperator, token = op.token): Promise<void> {
    expect(await d.status(token), 'HTTP with the old token').to.equal(401);
    expect(await d.clients.refusal(String(op.id), token), 'CONNECT with the old token').to.equal(4);
  }

  /**
   * `committedAt` is a time after the change committed: every entry D read with the old facts started
   * before it, so from committedAt + MEMBERSHIP_MAX_AGE_MS on none is trusted, however slow the machine
   * (D's cache and this test share the clock). The first request after that must refuse the old token.
   */
  async function afterTheBound(committedAt: number): Promise<void> {
    const wait = committedAt + MEMBERSHIP_MAX_AGE_MS + 1 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  async function expectCutOnDWithinBound(op: TestOperator, committedAt: number, token = op.token): Promise<void> {
    await afterTheBound(committedAt);
    expect(await d.status(token), 'HTTP with the old token').to.equal(401);
    expect(await d.clients.refusal(String(op.id), token), 'CONNECT with the old token').to.equal(4);
  }

  async function expectWorksOnDAtOnce(op: TestOperator, token: string): Promise<void> {
    expect(await d.status(token), 'HTTP with the new token').to.equal(200);
    expect(await mqttAccepts(op, token), 'CONNECT with the new token').to.equal(true);
  }

  async function loginOn(p: { request: TestApi['request'] }, op: TestOperator, password = op.password): Promise<string> {
    const res = await p.request('POST', '/api/operators/login', { body: { email: op.email, password } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.workspace.token as string;
  }

  async function resetPassword(p: { request: TestApi['request'] }, op: TestOperator, newPassword: string): Promise<void> {
    const before = a.mailbox.mails.filter((m) => m.to.includes(op.email)).length;
    expect((await p.request('POST', '/api/operators/forgot-password', { body: { email: op.email } })).status).to.equal(200);
    const link = linkParams((await waitForMail(a, op.email, '/user/reset', before)).link);
    const res = await p.request('POST', '/api/operators/reset-password', {
      body: { email: op.email, token: link.get('token'), newPassword, confirmNewPassword: newPassword },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  describe('a change committed by the same process', () => {
    it('a deactivation cuts the old token at once; after reactivation a new token works at once', async () => {
      const { admin, agent } = await member();
      await primeOnD(agent);
      expect((await d.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { isActive: false } })).status).to.equal(200);
      await expectCutOnDAtOnce(agent);
      expect((await d.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { isActive: true } })).status).to.equal(200);
      expect(await d.status(agent.token), 'the old token stays cut').to.equal(401);
      await expectWorksOnDAtOnce(agent, await loginOn(d, agent));
    });

    it('a level change cuts the old token at once; the new token works at once at the new level', async () => {
      const { admin, agent } = await member(6);
      await primeOnD(agent);
      expect((await d.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { accessLevel: 3 } })).status).to.equal(200);
      await expectCutOnDAtOnce(agent);
      const fresh = await loginOn(d, agent);
      await expectWorksOnDAtOnce(agent, fresh);
      expect((await d.request('GET', '/api/workspace/secrets', { token: fresh })).status, 'acts at level 3').to.equal(403);
    });

    it('a password change cuts the old token at once; the session it answers works at once', async () => {
      const { agent } = await member();
      await primeOnD(agent);
      const res = await d.request('POST', '/api/operators/change-password', {
        token: agent.token,
        body: { password: agent.password, newPassword: 'trocada-123', confirmNewPassword: 'trocada-123' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await expectCutOnDAtOnce(agent);
      await expectWorksOnDAtOnce(agent, res.body.data.workspace.token);
    });

    it('a password reset cuts the old token at once; a new login works at once', async () => {
      const { agent } = await member();
      await primeOnD(agent);
      await resetPassword(d, agent, 'redefinida-123');
      await expectCutOnDAtOnce(agent);
      await expectWorksOnDAtOnce(agent, await loginOn(d, agent, 'redefinida-123'));
    });
  });

  describe('a change committed by another process', () => {
    it(`a deactivation cuts the old token within ${MEMBERSHIP_MAX_AGE_MS} ms; after reactivation a new token works at once`, async () => {
      const { admin, agent } = await member();
      await primeOnD(agent);
      expect((await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { isActive: false } })).status).to.equal(200);
      await expectCutOnDWithinBound(agent, Date.now());
      expect((await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { isActive: true } })).status).to.equal(200);
      await expectWorksOnDAtOnce(agent, await loginOn(a, agent));
    });

    it('deactivate then reactivate before the entry ages out: the new token works at once', async () => {
      const { admin, agent } = await member();
      await primeOnD(agent);
      for (const isActive of [false, true]) {
        expect((await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { isActive } })).status).to.equal(200);
      }
      const committedAt = Date.now();
      await expectWorksOnDAtOnce(agent, await loginOn(a, agent));
      await expectCutOnDWithinBound(agent, committedAt);
    });

    it('a level change cuts the old token within the bound; the new token works at once', async () => {
      const { admin, agent } = await member(6);
      await primeOnD(agent);
      expect((await a.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { accessLevel: 3 } })).status).to.equal(200);
      const committedAt = Date.now();
      await expectWorksOnDAtOnce(agent, await loginOn(a, agent));
      await expectCutOnDWithinBound(agent, committedAt);
    });

    it('a password change cuts the old token within the bound; the new session works at once', async () => {
      const { agent } = await member();
      await primeOnD(agent);
      const res = await a.request('POST', '/api/operators/change-password', {
        token: agent.token,
        body: { password: agent.password, newPassword: 'trocada-456', confirmNewPassword: 'trocada-456' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const committedAt = Date.now();
      await expectWorksOnDAtOnce(agent, res.body.data.workspace.token);
      await expectCutOnDWithinBound(agent, committedAt);
    });

    it('a password reset cuts the old token within the bound; a new login works at once', async () => {
      const { agent } = await member();
      await primeOnD(agent);
      await resetPassword(a, agent, 'redefinida-456');
      const committedAt = Date.now();
      await expectWorksOnDAtOnce(agent, await loginOn(a, agent, 'redefinida-456'));
      await expectCutOnDWithinBound(agent, committedAt);
    });

    it('a removal made in SQL cuts the token within the bound', async () => {
      const { agent } = await member();
      await primeOnD(agent);
      await a.deps.knex('workspace_members').where({ workspaceId: agent.workspaceId, operatorId: agent.id }).delete();
      await expectCutOnDWithinBound(agent, Date.now());
    });
  });

  describe('the API token', () => {
    async function apiTokenOf(holder: TestOperator): Promise<string> {
      const res = await a.request('POST', '/api/workspace/secrets', { token: holder.token });
      expect(res.status).to.equal(201);
      return res.body.data.apiToken as string;
    }

    it('of a member deactivated by another process fails within the bound, and works at once when reactivated', async () => {
      const { admin, agent: master } = await member(6);
      const token = await apiTokenOf(master);
      expect(await d.status(token)).to.equal(200);
      expect(await d.status(token)).to.equal(200);
      expect((await a.request('PUT', `/api/operator/${master.id}`, { token: admin.token, body: { isActive: false } })).status).to.equal(200);
      await afterTheBound(Date.now());
      expect(await d.status(token), 'API token of a deactivated member').to.equal(401);
      expect((await a.request('PUT', `/api/operator/${master.id}`, { token: admin.token, body: { isActive: true } })).status).to.equal(200);
      expect(await d.status(token), 'reactivated').to.equal(200);
    });

    it('of a member demoted below 6 on the same process fails at once', async () => {
      const { admin, agent: master } = await member(6);
      const token = await apiTokenOf(master);
      expect(await d.status(token)).to.equal(200);
      expect((await d.request('PUT', `/api/operator/${master.id}`, { token: admin.token, body: { accessLevel: 3 } })).status).to.equal(200);
      expect(await d.status(token)).to.equal(401);
      expect((await d.request('PUT', `/api/operator/${master.id}`, { token: admin.token, body: { accessLevel: 6 } })).status).to.equal(200);
      expect(await d.status(token), 'back at 6').to.equal(200);
    });
  });
});
