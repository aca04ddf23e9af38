import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { expectError, login, newEmail, signUp } from './helpers';

// Each block runs on its own api instance: limiter state is per instance, and these tests fill it on purpose.
describe('rate limits of the account calls', () => {
  describe('without a trusted proxy (TRUST_PROXY=0)', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi({ trustProxy: 0 });
    });
    after(() => api.close());
    beforeEach(() => api.deps.rateLimiter.reset());

    it('answers the 6th login from one address within 5 minutes with 429 and Retry-After, even with the right password', async () => {
      const s = await signUp(api);
      for (let i = 0; i < 5; i++) expectError(await login(api, newEmail(), 'errada'), 401, 'AuthenticationError');
      const res = await login(api, s.email, s.password);
      expectError(res, 429, 'RateLimitError');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 300);
      expect(res.body.errors[0].descriptions[0]).to.equal(`Muitas tentativas. Tente novamente em ${retryAfter} segundos.`);
    });

    it('counts failed logins only: six agents signing in successfully from one address all get in', async () => {
      const agents = [];
      for (let i = 0; i < 6; i++) agents.push(await signUp(api));
      for (const agent of agents) {
        const res = await login(api, agent.email, agent.password);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      // The same agents again, still within the window: successes never fill it.
      for (const agent of agents) expect((await login(api, agent.email, agent.password)).status).to.equal(200);
      // Guessing from that address is still cut off after five failures.
      for (let i = 0; i < 5; i++) expectError(await login(api, agents[0].email, 'errada'), 401, 'AuthenticationError');
      const blocked = await login(api, newEmail(), 'errada');
      expectError(blocked, 429, 'RateLimitError');
      expect(blocked.body.errors[0].descriptions[0]).to.match(/^Muitas tentativas\. Tente novamente em \d+ segundos\.$/);
    });

    it('holds a place for attempts in flight: parallel guesses from one address cannot pass a full window together', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => login(api, newEmail(), 'errada')));
      expect(results.map((r) => r.status).sort()).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429]);
    });

    it('ignores a forged X-Forwarded-For: changing it does not dodge the address limit', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await login(api, newEmail(), 'errada', { 'X-Forwarded-For': `203.0.113.${i + 1}` });
        expect(res.status).to.equal(401);
      }
      expectError(await login(api, newEmail(), 'errada', { 'X-Forwarded-For': '198.51.100.77' }), 429, 'RateLimitError');
    });

    it('limits forgot-password per e-mail, still without revealing whether it exists', async () => {
      const ghost = newEmail('fantasma');
      const bodies = [];
      for (let i = 0; i < 3; i++) {
        const res = await api.request('POST', '/api/operators/forgot-password', { body: { email: ghost } });
        expect(res.status).to.equal(200);
        bodies.push(res.body);
      }
      expectError(await api.request('POST', '/api/operators/forgot-password', { body: { email: ghost.toUpperCase() } }), 429, 'RateLimitError');
      // The limit is per e-mail: another one from the same address still gets through.
      expect((await api.request('POST', '/api/operators/forgot-password', { body: { email: newEmail() } })).status).to.equal(200);
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).to.equal(1);
    });

    it('limits forgot-password per address', async () => {
      for (let i = 0; i < 5; i++) expect((await api.request('POST', '/api/operators/forgot-password', { body: { email: newEmail() } })).status).to.equal(200);
      expectError(await api.request('POST', '/api/operators/forgot-password', { body: { email: newEmail() } }), 429, 'RateLimitError');
    });

    it('limits signups per address', async () => {
      for (let i = 0; i < 10; i++) await signUp(api);
      const res = await api.request('POST', '/api/signup', { body: { name: 'N', workspace: 'W', email: newEmail(), password: '123456', acceptTerms: true } });
      expectError(res, 429, 'RateLimitError');
      expect(res.headers.get('retry-after')).to.match(/^[1-9][0-9]*$/);
    });
  });

  describe('behind one trusted proxy (TRUST_PROXY=1)', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi({ trustProxy: 1 });
    });
    after(() => api.close());
    beforeEach(() => api.deps.rateLimiter.reset());

    it('limits one e-mail to 10 attempts per 15 minutes across different addresses', async () => {
      const s = await signUp(api);
      for (let i = 0; i < 10; i++) {
        expectError(await login(api, s.email.toUpperCase(), 'errada', { 'X-Forwarded-For': `203.0.113.${i + 1}` }), 401, 'AuthenticationError');
      }
      const blocked = await login(api, s.email, s.password, { 'X-Forwarded-For': '198.51.100.1' });
      expectError(blocked, 429, 'RateLimitError');
      expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 900);
      // Other accounts from a fresh address are unaffected.
      const other = await signUp(api);
      expect((await login(api, other.email, other.password, { 'X-Forwarded-For': '198.51.100.2' })).status).to.equal(200);
    });

    it('counts failed logins per e-mail only: successes of that account never lock it', async () => {
      const s = await signUp(api);
      for (let i = 0; i < 12; i++) {
        const res = await login(api, s.email, s.password, { 'X-Forwarded-For': `203.0.113.${100 + (i % 3)}` });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
    });

    it('counts each client address given by the proxy separately', async () => {
      for (let i = 0; i < 5; i++) expect((await login(api, newEmail(), 'errada', { 'X-Forwarded-For': '203.0.113.50' })).status).to.equal(401);
      expectError(await login(api, newEmail(), 'errada', { 'X-Forwarded-For': '203.0.113.50' }), 429, 'RateLimitError');
      // The client cannot prepend its own addresses: the proxy's entry (the last one) is what counts.
      expectError(await login(api, newEmail(), 'errada', { 'X-Forwarded-For': '10.9.9.9, 203.0.113.50' }), 429, 'RateLimitError');
      expect((await login(api, newEmail(), 'errada', { 'X-Forwarded-For': '203.0.113.51' })).status).to.equal(401);
    });
  });
});
