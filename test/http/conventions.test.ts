import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';
import { AppError } from '../../api/http/errors';

describe('API conventions (DESIGN.md §3)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  it('answers /api/health with the state of every dependency', async () => {
    const res = await api.request('GET', '/api/health');
    expect(res.body.data).to.have.keys('db', 'temporal', 'mqtt', 'worker');
    expect(res.body.data.db).to.equal('ok');
    expect(res.status).to.equal(Object.values(res.body.data).every((v) => v === 'ok') ? 200 : 503);
  });

  it('sets security headers and a correlation id on every response', async () => {
    const res = await api.request('GET', '/api/nao-existe');
    expect(res.headers.get('content-security-policy')).to.contain("frame-ancestors 'self'");
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps a safe incoming X-Request-Id and replaces an unsafe one', async () => {
    const kept = await api.request('GET', '/api/health', { headers: { 'X-Request-Id': 'abc12345-trace' } });
    expect(kept.headers.get('x-request-id')).to.equal('abc12345-trace');
    const replaced = await api.request('GET', '/api/health', { headers: { 'X-Request-Id': 'evil id <script>' } });
    expect(replaced.headers.get('x-request-id')).to.not.equal('evil id <script>');
  });

  it('answers unknown API routes with a NotFoundError in the error shape', async () => {
    const res = await api.request('GET', '/api/nao-existe');
    expect(res.status).to.equal(404);
    expect(res.body.errors[0]).to.include({ type: 'NotFoundError' });
    expect(res.body.errors[0].descriptions).to.be.an('array').with.length.greaterThan(0);
  });

  it('answers a non-object JSON body with a 400, never a 500', async () => {
    for (const raw of ['[]', '"texto"', '42', 'null', '{"a":']) {
      const res = await api.request('POST', '/api/label', { rawBody: raw, token: 'x'.repeat(20) });
      expect(res.status, raw).to.be.oneOf([400, 401]);
      expect(res.body.errors[0].type).to.be.oneOf(['ValidationError', 'AuthenticationError']);
    }
  });

  it('answers a JSON body over 1 MB with 413 in the error shape', async () => {
    const res = await api.request('POST', '/api/operators/login', { rawBody: JSON.stringify({ email: 'a'.repeat(1_100_000) }) });
    expect(res.status).to.equal(413);
    expect(res.body.errors[0].type).to.equal('PayloadTooLargeError');
  });
});

describe('rate limiter', () => {
  it('allows `limit` hits per window, then refuses with a 429 with Retry-After until the window slides', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    for (let i = 0; i < 5; i++) await limiter.hit('login:1.2.3.4', 5, 300_000);
    let caught: unknown;
    try {
      await limiter.hit('login:1.2.3.4', 5, 300_000);
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(AppError);
    expect((caught as AppError).status).to.equal(429);
    expect((caught as AppError).headers['Retry-After']).to.equal('300');
    await limiter.hit('login:5.6.7.8', 5, 300_000);
    now += 300_001;
    await limiter.hit('login:1.2.3.4', 5, 300_000);
  });
});
