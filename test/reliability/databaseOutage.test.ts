import { expect } from 'chai';
import { testDatabase } from '../helpers/db';
import { testTemporalAddress } from '../helpers/temporal';
import { ChildApi } from './support/childApi';
import { TcpProxy } from './support/tcpProxy';
import { Agent } from './support/agent';
import mqtt from 'mqtt';
import { eventually, firstContact, isErrorShape, makeTeam, sendAsVisitor, clientMessageId, type Team } from './support/fixtures';
import { MEMBERSHIP_MAX_AGE_MS } from '../../api/auth/membershipCache';

/**
 * PostgreSQL unreachable for a moment, for the api alone: a TCP proxy sits between the api child and the
 * machine's PostgreSQL (which keeps running for everyone else) and is cut and restored.
 */
describe('Reliability: PostgreSQL unreachable for a moment', function () {
  this.timeout(120_000);
  let proxy: TcpProxy;
  let api: ChildApi;
  let team: Team;
  let agent: Agent;

  before(async () => {
    const { url, knex } = await testDatabase();
    const target = new URL(url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    target.host = `127.0.0.1:${proxy.port}`;
    api = new ChildApi({ databaseUrl: target.toString(), temporalAddress: await testTemporalAddress() });
    await api.start();
    team = await makeTeam(knex, api);
    agent = new Agent(api.wsUrl, team.ws.id, team.owner.id, team.owner.token);
    await agent.ready();
  });
  after(async () => {
    await agent?.close();
    await api?.stop();
    await proxy?.stop();
  });
  afterEach(() => proxy.restore());

  async function healthIs(status: number): Promise<{ status: number; body: any }> {
    return eventually(async () => {
      // No worker runs beside this api: its own parts (the worker part would say 503 by design).
      const res = await api.request('GET', '/api/health?parts=db,temporal,mqtt', { timeoutMs: 5000 });
      return res.status === status ? res : undefined;
    }, 20_000, `health ${status}`);
  }

  for (const mode of ['refuse', 'blackhole'] as const) {
    it(`${mode}: health says 503 (db), requests fail fast with the error shape, the api stays up and recovers by itself`, async () => {
      await healthIs(200);
      const visitor = await firstContact(api, team);
      const pid = api.pid;

      proxy.cut(mode);
      const down = await healthIs(503);
      expect(down.body.data).to.include({ db: 'fail' });
      expect(isErrorShape(down.body), JSON.stringify(down.body)).to.equal(true);
      expect(down.body.errors.map((e: { key?: string }) => e.key)).to.include('db');

      const attempts = await Promise.all([
        api.request('GET', '/api/inbox?segment=all', { token: team.owner.token }),
        api.request('GET', '/api/operators/profile', { token: team.owner.token }),
        sendAsVisitor(api, team, visitor, 'durante a queda', clientMessageId()),
        api.request('POST', '/api/operators/login', { body: { email: team.owner.email, password: team.owner.password } }),
      ]);
      for (const res of attempts) {
        expect(res.status, JSON.stringify(res.body)).to.equal(503);
        expect(isErrorShape(res.body), JSON.stringify(res.body)).to.equal(true);
        expect(res.body.errors[0].type).to.equal('ServiceUnavailableError');
        expect(res.ms, 'answered without hanging').to.be.lessThan(6000);
      }
      // A new MQTT CONNECT cannot be checked: refused with 3 (server unavailable) within the connect timeout.
      // Membership facts read before the outage are trusted for MEMBERSHIP_MAX_AGE_MS (api/http/membershipCache.ts):
      // wait that out so the check has to reach the database.
      await new Promise((r) => setTimeout(r, MEMBERSHIP_MAX_AGE_MS + 500));
      const started = Date.now();
      const client = mqtt.connect(api.wsUrl, { username: String(team.owner.id), password: team.owner.token, reconnectPeriod: 0, connectTimeout: 10_000, protocolVersion: 4 });
      try {
        const code = await new Promise<number>((resolve) => {
          client.once('error', (err) => resolve((err as Error & { code?: number }).code ?? -1));
          client.once('connect', () => resolve(0));
          client.once('close', () => resolve(-1));
        });
        expect(code, 'CONNACK return code').to.equal(3);
      } finally {
        await client.endAsync(true);
      }
      expect(Date.now() - started).to.be.lessThan(6000);
      expect(api.running, 'the api process is still alive').to.equal(true);
      expect(api.pid).to.equal(pid);

      proxy.restore();
      const up = await healthIs(200);
      expect(up.body.data).to.deep.equal({ db: 'ok', temporal: 'ok', mqtt: 'ok' });
      const id = clientMessageId();
      const after = await sendAsVisitor(api, team, visitor, 'depois da queda', id);
      expect(after.status, JSON.stringify(after.body)).to.equal(201);
      // The agent connected before the outage (or reconnected by itself) gets it live.
      await eventually(async () => agent.newMessageIds().includes(after.body.data.message.id), 10_000, 'published after recovery');
      const inbox = await api.request('GET', '/api/inbox?segment=all', { token: team.owner.token });
      expect(inbox.status).to.equal(200);
      expect(api.pid, 'recovered without a restart').to.equal(pid);
    });
  }
});
