import { expect } from 'chai';
import { LineRateLimiter, LineRateLimiters, type LimiterClock } from '../../activities/campaigns/lineRate';

/** A line's campaign rate limiter (docs/campaigns.md "Rate"): on a virtual clock where exact figures are checked, on the real one where only what a busy machine cannot break is. */
describe("campaign line rate limiter: a schedule per line, not a sleep after each send", function () {
  this.timeout(20_000);

  /** Virtual time: a sleep moves the clock by exactly what was asked (plus `late()`, a late timer), at once. */
  class VirtualClock implements LimiterClock {
    t = 1_000_000;
    constructor(private readonly late: () => number = () => 0) {}
    now(): number {
      return this.t;
    }
    sleep(ms: number): Promise<void> {
      this.t += ms + this.late();
      return Promise.resolve();
    }
  }

  /** No window of `rate` slots holds more than `rate` sends: any `rate` + 1 consecutive sends span `rate` slots. */
  const expectWindowsKept = (at: number[], limiter: LineRateLimiter) => {
    for (let i = 0; i + 20 < at.length; i++) expect(at[i + 20] - at[i], `sends ${i}..${i + 20}`).to.be.at.least(20 * limiter.slotMs - 1e-6);
  };

  it("does not add the time a send takes to the gap: 40 sends of 30 ms each at 20/s take at most 39 slots, not 39 × (slot + 30 ms)", async () => {
    const clock = new VirtualClock();
    const limiter = new LineRateLimiter(20, clock);
    const at: number[] = [];
    for (let i = 0; i < 40; i++) {
      await limiter.take();
      at.push(clock.now());
      clock.t += 30; // the send itself (Meta's answer, the database)
    }
    expectWindowsKept(at, limiter);
    // Sleeping a slot after each send would take 39 × 80.5 ms = 3,140 ms.
    expect(at.at(-1)! - at[0]).to.be.at.most(39 * limiter.slotMs);
  });

  it('makes up a stall within the window, never letting more than `rate` sends leave inside any window of `rate` slots', async () => {
    const clock = new VirtualClock();
    const limiter = new LineRateLimiter(20, clock);
    const at: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 5) clock.t += 300; // a burst's start-up, a slow statement
      await limiter.take();
      at.push(clock.now());
    }
    expectWindowsKept(at, limiter);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1], `send ${i}`).to.be.at.least(limiter.slotMs / 2);
    // Without making it up: 39 slots + 300 ms ≈ 2,270 ms.
    expect(at.at(-1)! - at[0]).to.be.at.most(39 * limiter.slotMs);
  });

  it('late timers (a busy machine) never squeeze one more send into a window: the next sends count from when each really left', async () => {
    let n = 0;
    const clock = new VirtualClock(() => (n++ * 7) % 23); // 0 to 22 ms late, unevenly
    const limiter = new LineRateLimiter(20, clock);
    const at: number[] = [];
    for (let i = 0; i < 60; i++) {
      await limiter.take();
      at.push(clock.now());
    }
    expectWindowsKept(at, limiter);
  });

  it('waits on the real clock: of 60 sends at 50/s, no 51 leave within one second', async () => {
    const limiter = new LineRateLimiter(50);
    const at: number[] = [];
    for (let i = 0; i < 60; i++) {
      await limiter.take();
      at.push(Date.now());
    }
    // Times are read after each take() resolves: a busy machine can only make them later, so only lower bounds.
    for (let i = 0; i + 50 < at.length; i++) expect(at[i + 50] - at[i]).to.be.at.least(50 * limiter.slotMs - 2);
    expect(at.at(-1)! - at[0]).to.be.at.least(59 * Math.max(limiter.slotMs / 2, limiter.slotMs - 50) - 2);
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
