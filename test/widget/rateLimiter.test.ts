import { expect } from 'chai';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';

describe('rate limiter: sliding windows for several keys at once (take / wait)', () => {
  const MINUTE = 60_000;

  it('counts a hit on every key only when all have room, and says when the fullest frees up', () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    const ip = { key: 'ip:1', limit: 2, windowMs: 10 * MINUTE };
    const range = { key: 'range:1', limit: 3, windowMs: 10 * MINUTE };
    expect(limiter.take([ip, range])).to.equal(0);
    now += MINUTE;
    expect(limiter.take([ip, range])).to.equal(0);
    now += MINUTE;
    // ip is full: nothing is counted on range either.
    expect(limiter.take([ip, range])).to.equal(8 * 60);
    expect(limiter.wait([range])).to.equal(0);
    expect(limiter.take([{ ...ip, key: 'ip:2' }, range])).to.equal(0);
    expect(limiter.take([{ ...ip, key: 'ip:3' }, range])).to.equal(8 * 60);
    // wait answers without counting.
    expect(limiter.wait([ip, range])).to.equal(8 * 60);
    now += 8 * MINUTE + 1;
    expect(limiter.wait([ip])).to.equal(0);
    expect(limiter.take([ip, range])).to.equal(0);
  });

  it('hit still throws a 429 and answers a function that gives the hit back', () => {
    let now = 0;
    const limiter = createMemoryRateLimiter(() => now);
    const release = limiter.hit('k', 1, MINUTE);
    expect(() => limiter.hit('k', 1, MINUTE)).to.throw().with.property('status', 429);
    release();
    now += 1;
    expect(() => limiter.hit('k', 1, MINUTE)).to.not.throw();
  });
});
