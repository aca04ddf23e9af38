/**
 * Campaign send rate per WhatsApp line (docs/campaigns.md "Rate"): one limiter per line in the process, shared
 * by every campaign and every burst sending on that line, so two campaigns on one line share its rate and a
 * new burst keeps the pace of the one before it, while two lines never wait for each other.
 *
 * A send's slot is the latest of:
 * - now;
 * - the previous send + a slot less 50 ms, but at least half a slot: after a stall (a burst's start-up, a slow
 *   statement) a fast line (80/s: 12.6 ms slots) catches up at up to twice its rate, a slow one (a phone
 *   line, 1/s) keeps an even pace;
 * - the send `perWindow` sends back + `perWindow` slots: never more than `perWindow` sends inside any window of
 *   `perWindow` slots, measured on the times the sends really left (a late timer cannot squeeze one more in).
 * A slot is 1/rate and 1 % more, so network jitter of a few ms does not put rate + 1 sends inside one second
 * at the provider. Compared with sleeping 1/rate after each send, the time a send itself takes (the
 * provider's answer, the database) is not added to the gap, and a stall is made up within the window
 * instead of being lost.
 */
/** The clock a limiter reads and waits on: the real one, or a virtual one in tests (exact, whatever the machine's load). */
export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: LimiterClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export class LineRateLimiter {
  readonly slotMs: number;
  private readonly spacingMs: number;
  private readonly perWindow: number;
  /** The last `perWindow` sends, oldest first: when each left (its reserved slot until it leaves). */
  private readonly sends: { at: number }[] = [];

  constructor(
    readonly ratePerSecond: number,
    private readonly clock: LimiterClock = realClock,
  ) {
    if (!(ratePerSecond > 0)) throw new Error(`campaign rate must be positive, got ${ratePerSecond}`);
    this.slotMs = (1000 / ratePerSecond) * 1.01;
    this.spacingMs = Math.max(this.slotMs / 2, this.slotMs - 50);
    this.perWindow = Math.max(1, Math.ceil(ratePerSecond));
  }

  /**
   * Waits for this send's slot and answers when it may leave. `onWait` runs at least every `tickMs` while
   * waiting (the activity's heartbeat, so a slow line's wait never looks like a dead worker). A caller that
   * still has work between its slot and the call (the sender records the number as handed over) calls
   * `leaving()` of the answer right before the call, so the window counts the time the send really left.
   */
  async take(onWait?: () => void, tickMs = 2000): Promise<{ leaving(): void }> {
    const now = this.clock.now();
    const last = this.sends.at(-1);
    const windowStart = this.sends.length >= this.perWindow ? this.sends[this.sends.length - this.perWindow] : undefined;
    const slot = Math.max(now, last ? last.at + this.spacingMs : now, windowStart ? windowStart.at + this.perWindow * this.slotMs : now);
    // Reserved at once (synchronously), so another campaign on the same line gets the slot after this one.
    const send = { at: slot };
    this.sends.push(send);
    if (this.sends.length > this.perWindow) this.sends.shift();
    for (let left = slot - this.clock.now(); left > 0; left = slot - this.clock.now()) {
      onWait?.();
      await this.clock.sleep(Math.min(left, tickMs));
    }
    // The real departure (a late timer) is what the next sends are measured against.
    send.at = Math.max(send.at, this.clock.now());
    return { leaving: () => void (send.at = Math.max(send.at, this.clock.now())) };
  }
}

/** The limiters of one process's activities, one per line (and rate: tests give one process different rates). */
export class LineRateLimiters {
  private readonly byLine = new Map<string, LineRateLimiter>();
  for(channelId: number, ratePerSecond: number): LineRateLimiter {
    const key = `${channelId}:${ratePerSecond}`;
    let limiter = this.byLine.get(key);
    if (!limiter) {
      limiter = new LineRateLimiter(ratePerSecond);
      this.byLine.set(key, limiter);
    }
    return limiter;
  }
}
