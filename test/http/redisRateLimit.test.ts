import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createRedisRateLimiter } from '../../api/http/redisRateLimit';
import type { RateLimiter } from '../../api/http/rateLimit';
import { testRedis, uniquePrefix } from '../helpers/redis';

const MINUTE = 60_000;

// Two limiters on two connections stand for two api nodes: what one counts, the other sees.
describe('rate limits shared through Redis (REDIS_URL): every api node counts in the same windows', () => {
  let a: Redis;
  let b: Redis;
  let nodeA: RateLimiter;
  let nodeB: RateLimiter;
  beforeEach(async () => {
    a = await testRedis();
    b = await testRedis();
    const prefix = uniquePrefix('rl');
    nodeA = createRedisRateLimiter(a, prefix);
    nodeB = createRedisRateLimiter(b, prefix);
  });
  afterEach(async () => {
    await nodeB.reset();
    await nodeA.close?.();
    await nodeB.close?.();
  });

  it('refuses the 6th hit in the window whichever node takes it, with a Retry-After of the window', async () => {
    for (let i = 0; i < 5; i++) await (i % 2 ? nodeA : nodeB).hit('login:ip:203.0.113.9', 5, 5 * MINUTE);
    const refused = await nodeA.hit('login:ip:203.0.113.9', 5, 5 * MINUTE).then(() => undefined, (err: unknown) => err);
    expect(refused).to.have.property('status', 429);
    expect((refused as { headers: Record<string, string> }).headers['Retry-After']).to.be.oneOf(['299', '300']);
    // Another key has its own window.
    await nodeB.hit('login:ip:203.0.113.10', 5, 5 * MINUTE);
  });

  it('lets exactly `limit` of many concurrent takes through across both nodes', async () => {
    const rule = { key: 'widget:first:ip:198.51.100.1', limit: 7, windowMs: 10 * MINUTE };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? nodeA : nodeB).take([rule])));
    expect(answers.filter((w) => w === 0)).to.have.length(7);
    expect(answers.filter((w) => w > 0)).to.have.length(23);
  });

  it('counts a take on every rule or on none, and wait counts nothing', async () => {
    const ip = { key: 'ip:1', limit: 2, windowMs: 10 * MINUTE };
    const range = { key: 'range:1', limit: 3, windowMs: 10 * MINUTE };
    expect(await nodeA.take([ip, range])).to.equal(0);
    expect(await nodeB.take([ip, range])).to.equal(0);
    // ip is full: range is not counted.
    expect(await nodeA.take([ip, range])).to.be.within(599, 600);
    expect(await nodeB.wait([range])).to.equal(0);
    expect(await nodeB.take([{ ...ip, key: 'ip:2' }, range])).to.equal(0);
    expect(await nodeA.wait([range])).to.be.within(599, 600);
    expect(await nodeA.wait([range])).to.be.within(599, 600);
  });

  it('a proof-of-work solution spent on one node is spent on the other (limit 1 per nonce)', async () => {
    const spent = { key: 'widget:challenge:spent:nonce-1', limit: 1, windowMs: 3 * MINUTE };
    expect(await nodeA.take([spent])).to.equal(0);
    expect(await nodeB.take([spent])).to.be.greaterThan(0);
  });

  it('gives a released hit back to every node (only failed logins count)', async () => {
    const release = await nodeA.hit('k', 1, MINUTE);
    expect(await nodeB.wait([{ key: 'k', limit: 1, windowMs: MINUTE }])).to.be.greaterThan(0);
    await release();
    await nodeB.hit('k', 1, MINUTE);
  });

  it('slides: hits older than the window stop counting', async () => {
    const rule = { key: 'short', limit: 1, windowMs: 300 };
    expect(await nodeA.take([rule])).to.equal(0);
    expect(await nodeB.take([rule])).to.equal(1);
    await new Promise((r) => setTimeout(r, 350));
    expect(await nodeB.take([rule])).to.equal(0);
  });

  it('answers 503 while Redis cannot be reached instead of letting the request through uncounted', async () => {
    await a.quit();
    const refused = await nodeA.take([{ key: 'x', limit: 5, windowMs: MINUTE }]).then(() => undefined, (err: unknown) => err);
    expect(refused).to.have.property('status', 503);
  });
});
