/** The calendar day of `at` in a time zone, as YYYY-MM-DD (the api's dayIn, api/campaigns/createCampaign.ts). */
export function dayIn(timeZone: string, at: Date): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }
}

/** Milliseconds the zone is ahead of UTC at `at`. */
function zoneOffset(timeZone: string, at: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(at))
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(at / 1000) * 1000;
}

/**
 * A wall-clock 'YYYY-MM-DDTHH:mm' (a datetime-local input) read in the workspace's time zone, as an ISO
 * instant; undefined when it is not a date.
 */
export function zonedToIso(local: string, timeZone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let at = wall;
  try {
    // Twice: the offset at the guessed instant may differ across a DST change.
    at = wall - zoneOffset(timeZone, wall);
    at = wall - zoneOffset(timeZone, at);
  } catch {
    at = new Date(local).getTime();
  }
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}
