import { expect } from 'chai';
import { LineRateLimiter, LineRateLimiters } from '../../activities/campaigns/lineRate';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A line's campaign rate limiter (docs/campaigns.md "Rate"), on the real clock. */
describe("campaign line rate limiter: a schedule per line, not a sleep after each send", function () {
  this.timeout(20_000);

  it("does not add the time a send takes to the gap: 40 sends of 30 ms each at 20/s take at most ~39 slots, not 39 × (slot + 30 ms)", async () => {
    const limiter = new LineRateLimiter(20);
    const at: number[] = [];
    for (let i = 0; i < 40; i++) {
      await limiter.take();
      at.push(Date.now());
      await sleep(30); // the send itself (Meta's answer, the database)
    }
    for (let i = 0; i + 20 < at.length; i++) expect(at[i + 20] - at[i], `sends ${i}..${i + 20}`).to.be.at.least(20 * limiter.slotMs - 2);
    // Sleeping a slot after each send would take 39 × 80.5 ms = 3,140 ms.
    expect(at.at(-1)! - at[0]).to.be.below(39 * limiter.slotMs + 200);
  });

  it('makes up a stall within the window, never letting more than `rate` sends leave inside any window of `rate` slots', async () => {
    const limiter = new LineRateLimiter(20);
    const at: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 5) await sleep(300); // a burst's start-up, a slow statement
      await limiter.take();
      at.push(Date.now());
    }
    for (let i = 0; i + 20 < at.length; i++) expect(at[i + 20] - at[i], `sends ${i}..${i + 20}`).to.be.at.least(20 * limiter.slotMs - 2);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1], `send ${i}`).to.be.at.least(limiter.slotMs / 2 - 2);
    // Without making it up: 39 slots + 300 ms ≈ 2,270 ms.
    expect(at.at(-1)! - at[0]).to.be.below(39 * limiter.slotMs + 150);
  });

  it('one limiter per line: two campaigns taking slots on one line share them, another line has its own', async () => {
    const limiters = new LineRateLimiters();
    const [a1, a2, b] = [limiters.for(1, 10), limiters.for(1, 10), limiters.for(2, 10)];
    expect(a1).to.equal(a2);
    expect(b).to.not.equal(a1);
    const lineA: number[] = [];
    const lineB: number[] = [];
    const run = async (limiter: LineRateLimiter, into: number[], n: number) => {
      for (let i = 0; i < n; i++) {
        await limiter.take();
        into.push(Date.now());
      }
    };
    const t0 = Date.now();
    await Promise.all([run(a1, lineA, 4), run(a2, lineA, 4), run(b, lineB, 4)]);
    lineA.sort((x, y) => x - y);
    // An idle line may start at up to twice its rate until the window binds (10 sends in 1.01 s): one send
    // every slot less 50 ms (51 ms at 10/s). Line A: the 8 sends of its two campaigns one after another at
    // that spacing, never two at once; line B: its 4 beside them, not queued behind line A's 8.
    // Times are read after each take() resolves, so a busy machine (CI runs suites beside each other) can
    // only delay a reading: the checks are the ones a delay cannot break — 8 sends of line A span at least 7
    // spacings, no two of them together, and line B ends before line A (it did not queue behind A's 8).
    const spacing = a1.slotMs - 50;
    for (let i = 1; i < lineA.length; i++) expect(lineA[i] - lineA[i - 1], `A ${i}`).to.be.at.least(10);
    expect(lineA.at(-1)! - t0).to.be.at.least(7 * spacing - 2);
    expect(lineB.at(-1)!).to.be.below(lineA.at(-1)!);
  });
});
