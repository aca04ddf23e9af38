import { expect } from 'chai';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';

describe('rate limiter: sliding windows for several keys at once (take / wait)', () => {
  const MINUTE = 60_000;

  it('counts a hit on every key only when all have room, and says when the fullest frees up', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    const ip = { key: 'ip:1', limit: 2, windowMs: 10 * MINUTE };
    const range = { key: 'range:1', limit: 3, windowMs: 10 * MINUTE };
    expect(await limiter.take([ip, range])).to.equal(0);
    now += MINUTE;
    expect(await limiter.take([ip, range])).to.equal(0);
    now += MINUTE;
    // ip is full: nothing is counted on range either.
    expect(await limiter.take([ip, range])).to.equal(8 * 60);
    expect(await limiter.wait([range])).to.equal(0);
    expect(await limiter.take([{ ...ip, key: 'ip:2' }, range])).to.equal(0);
    expect(await limiter.take([{ ...ip, key: 'ip:3' }, range])).to.equal(8 * 60);
    // wait answers without counting.
    expect(await limiter.wait([ip, range])).to.equal(8 * 60);
    now += 8 * MINUTE + 1;
    expect(await limiter.wait([ip])).to.equal(0);
    expect(await limiter.take([ip, range])).to.equal(0);
  });

  it('hit still refuses with a 429 and answers a function that gives the hit back', async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter(() => now);
    const release = await limiter.hit('k', 1, MINUTE);
    const refused = await limiter.hit('k', 1, MINUTE).then(() => undefined, (err: unknown) => err);
    expect(refused).to.have.property('status', 429);
    await release();
    now += 1;
    await limiter.hit('k', 1, MINUTE);
  });
});
