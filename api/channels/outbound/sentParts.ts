/**
 * The parts of an outbound message a provider already accepted, for the message's next attempt. A message
 * with several files (or a text a provider takes in pieces) is several calls; when a later call fails (a
 * rate limit, the provider down) the delivery path retries the message, and the retry must not send the
 * earlier parts again. Kept in this process (the worker that retries) for `keepMs`, at most `maxEntries`
 * messages; a restart in between loses it and the next attempt sends every part again
 * (docs/channels/meta.md "Sending", docs/channels/telegram.md "Outbound").
 */
export class SentParts<T> {
  private readonly entries = new Map<string, { at: number; parts: T[] }>();

  constructor(
    private readonly keepMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** What was accepted for this message so far: a live list to push each newly accepted part onto. */
  of(key: string, now = Date.now()): T[] {
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.keepMs) return entry.parts;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const parts: T[] = [];
    this.entries.set(key, { at: now, parts });
    return parts;
  }

  /** The message went out whole: nothing to keep for it. */
  done(key: string): void {
    this.entries.delete(key);
  }
}
