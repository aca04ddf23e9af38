import { expect } from 'chai';
import { SignJWT } from 'jose';
import { createApp } from '../../api/app';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { Clients } from '../realtime/mqttClients';
import { CATALOG, FIXED_PARAMS } from './catalog';
import { appRoutes, fillPath } from './routes';

/**
 * Authentication (issue 6 "Security"): a wrong credential is a 401 on every path a person or a program
 * logs in by (the login call the UI uses, session tokens and the workspace API token on every route, MQTT
 * CONNECT), and the login limit holds whatever X-Forwarded-For says. test/auth/rateLimits.test.ts holds
 * the other limits; test/e2e/account.test.ts shows the UI's message for a wrong password.
 */
const login = (api: TestApi, email: string, password: string, headers: Record<string, string> = {}) => api.request('POST', '/api/operators/login', { body: { email, password }, headers });

async function foreignJwt(op: TestOperator, secret: string, exp: number): Promise<string> {
  return new SignJWT({ ws: op.workspaceId, lvl: 10, ov: 0, mv: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(op.id))
    .setIssuedAt()
    .setIssuer('balcao')
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

describe('security: authentication', function () {
  this.timeout(120_000);

  describe('wrong credentials', () => {
    let api: TestApi;
    let owner: TestOperator;
    let clients: Clients;
    before(async () => {
      api = await startTestApi();
      clients = new Clients(api.url);
      const ws = await makeWorkspace(api.deps.knex);
      owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    });
    beforeEach(() => api.deps.rateLimiter.reset());
    afterEach(() => clients.endAll());
    after(() => api.close());

    it('answers the login call with the same 401 for a wrong password, an unknown e-mail and a wrong-case password', async () => {
      const answers = [await login(api, owner.email, 'errada-123'), await login(api, `${unique('x')}@exemplo.com.br`, 'errada-123'), await login(api, owner.email, owner.password.toUpperCase())];
      for (const res of answers) {
        expect(res.status).to.equal(401);
        expect(res.body.errors[0].type).to.equal('AuthenticationError');
      }
      expect(new Set(answers.map((r) => JSON.stringify(r.body))).size, 'the answers tell nothing apart').to.equal(1);
      expect((await login(api, owner.email, owner.password)).status).to.equal(200);
    });

    it('answers 401 on every authenticated route to a forged, expired, malformed or revoked token and to a wrong API token', async () => {
      const gen = await api.request('POST', '/api/workspace/secrets', { token: owner.token });
      expect(gen.status).to.be.oneOf([200, 201]);
      const revokedApiToken = gen.body.data.apiToken as string;
      expect((await api.request('GET', '/api/label', { token: revokedApiToken })).status, 'the API token works before it is regenerated').to.equal(200);
      expect((await api.request('POST', '/api/workspace/secrets', { token: owner.token })).status).to.be.oneOf([200, 201]);

      const bad = {
        'JWT signed with another secret': await foreignJwt(owner, 'outro-segredo'.padEnd(48, 'y'), Math.floor(Date.now() / 1000) + 3600),
        'expired JWT': await foreignJwt(owner, api.config.jwtSecret, Math.floor(Date.now() / 1000) - 10),
        'malformed token': 'abc.def.ghi',
        'the account password as a token': owner.password,
        'unknown API token': `blc_${'x'.repeat(40)}`,
        'regenerated (old) API token': revokedApiToken,
      };
      const routes = appRoutes(createApp(api.deps)).filter((r) => CATALOG[r.key]?.access.kind !== 'public');
      expect(routes.length).to.be.greaterThan(80);
      const failures: string[] = [];
      for (const [what, token] of Object.entries(bad)) {
        for (const r of routes) {
          const path = fillPath(r.path, Object.fromEntries(r.params.map((p) => [p, FIXED_PARAMS[p] ?? '1'])));
          const res = await api.request(r.method, path, { token, ...(r.method === 'GET' ? {} : { body: {} }) });
          if (res.status !== 401) failures.push(`${what}: ${r.key} → ${res.status}`);
        }
      }
      expect(failures).to.deep.equal([]);
    });

    it('lets the workspace API token act for the workspace only: calls about the person refuse it, so it cannot mint a session', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const person = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Dona Original' });
      const gen = await api.request('POST', '/api/workspace/secrets', { token: person.token });
      const apiToken = gen.body.data.apiToken as string;
      const workspacesBefore = Number((await api.deps.knex('workspace_members').where({ operatorId: person.id }).count({ n: '*' }).first())?.n);
      for (const [method, path, body] of [
        ['POST', '/api/workspace', { name: 'Filial do token' }],
        ['PUT', '/api/session', { name: 'Renomeada' }],
        ['PUT', '/api/operators/profile', { name: 'Renomeada' }],
        ['GET', '/api/session', undefined],
        ['GET', '/api/operators/profile', undefined],
        ['POST', '/api/operators/change-password', { password: person.password, newPassword: 'tomada-123', confirmNewPassword: 'tomada-123' }],
        ['PUT', '/api/session', { password: person.password, newPassword: 'tomada-123', confirmNewPassword: 'tomada-123' }],
        ['GET', '/api/operators/resend-email', undefined],
      ] as const) {
        const res = await api.request(method, path, { token: apiToken, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(403);
        expect(JSON.stringify(res.body)).not.to.match(/renewalToken|"token"/);
      }
      const after = await api.deps.knex('operators').where({ id: person.id }).first('name', 'token_version');
      expect(after).to.deep.equal({ name: 'Dona Original', tokenVersion: 0 });
      expect(Number((await api.deps.knex('workspace_members').where({ operatorId: person.id }).count({ n: '*' }).first())?.n)).to.equal(workspacesBefore);
      // The workspace calls still work with it.
      expect((await api.request('GET', '/api/label', { token: apiToken })).status).to.equal(200);
    });

    it('refuses MQTT CONNECT with a wrong password, the account password, another operator’s token or the API token', async () => {
      const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 3);
      const apiToken = (await api.request('POST', '/api/workspace/secrets', { token: owner.token })).body.data.apiToken as string;
      for (const [username, password] of [
        [String(owner.id), apiToken],
        [String(owner.id), `${owner.token}x`],
        [String(owner.id), owner.password],
        [String(owner.id), other.token],
        [String(owner.id), await foreignJwt(owner, 'outro-segredo'.padEnd(48, 'y'), Math.floor(Date.now() / 1000) + 3600)],
      ]) {
        expect(await clients.refusal(username, password), password.slice(0, 20)).to.be.oneOf([4, 5]);
      }
      await clients.connect(String(owner.id), owner.token);
    });
  });

  describe('login limit (5 per address in 5 minutes)', () => {
    for (const trustProxy of [0, 1]) {
      describe(`TRUST_PROXY=${trustProxy}`, () => {
        let api: TestApi;
        let owner: TestOperator;
        before(async () => {
          api = await startTestApi({ trustProxy });
          owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
        });
        beforeEach(() => api.deps.rateLimiter.reset());
        after(() => api.close());

        it('answers the 6th login with 429, right password included, whatever X-Forwarded-For the client writes', async () => {
          // Behind a trusted proxy the proxy appends the real address last; a client can only prepend.
          const xff = (spoof: string) => ({ 'X-Forwarded-For': trustProxy ? `${spoof}, 198.51.100.7` : spoof });
          for (let i = 0; i < 5; i++) expect((await login(api, `${unique('n')}@exemplo.com.br`, 'errada-123', xff(`203.0.113.${i + 1}`))).status).to.equal(401);
          const sixth = await login(api, owner.email, owner.password, xff('192.0.2.99'));
          expect(sixth.status).to.equal(429);
          expect(sixth.body.errors[0].type).to.equal('RateLimitError');
          expect(Number(sixth.headers.get('retry-after'))).to.be.within(1, 300);
          // Without the header at all, and with a fresh spoof, still blocked.
          expect((await login(api, owner.email, owner.password, trustProxy ? { 'X-Forwarded-For': '198.51.100.7' } : {})).status).to.equal(429);
          expect((await login(api, owner.email, owner.password, xff('10.0.0.1'))).status).to.equal(429);
        });
      });
    }
  });
});
