/**
 * The calendar of scheduled messages (docs/scheduled-messages.md "When it goes out"): a wall-clock time in
 * the workspace's time zone, repeated daily, weekly or monthly on that wall clock (09:00 stays 09:00 across
 * a change of offset; the 31st becomes the last day of shorter months and comes back in longer ones).
 * Pure (Intl only): the api, the activity and the browser's form share it.
 */

export const REPEATS = ['none', 'daily', 'weekly', 'monthly'] as const;
export type Repeat = (typeof REPEATS)[number];

/** 'YYYY-MM-DDTHH:mm', as a datetime-local input gives it. */
export const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The parts of a wall-clock time, undefined when it is not a real date and time. */
export function parseLocal(local: string): Wall | undefined {
  const m = LOCAL_PATTERN.exec(local);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59) return undefined;
  return { year, month, day, hour, minute };
}

/** Whether 'YYYY-MM-DD' is a real date. */
export function isDate(date: string): boolean {
  return parseLocal(`${date}T00:00`) !== undefined;
}

function formatWall(w: Wall): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** Whether the runtime knows the IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

function wallAt(zone: string, at: number): Wall & { second: number } {
  const parts = Object.fromEntries(
    formatterFor(zone)
      .formatToParts(new Date(at))
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** Milliseconds the zone is ahead of UTC at `at`. */
function zoneOffset(zone: string, at: number): number {
  const w = wallAt(zone, at);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in a zone. Computed twice: the offset at the first guess may differ
 * across a change of offset. A time skipped by a change (02:30 on a spring-forward night) lands after it.
 */
export function zonedInstant(local: string, zone: string): Date {
  const w = parseLocal(local);
  if (!w) throw new RangeError(`not a wall-clock time: ${local}`);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  let at = wall - zoneOffset(zone, wall);
  at = wall - zoneOffset(zone, at);
  return new Date(at);
}

/** The wall-clock time ('YYYY-MM-DDTHH:mm') of an instant in a zone. */
export function localOf(at: Date, zone: string): string {
  return formatWall(wallAt(zone, at.getTime()));
}

/** The wall-clock time of occurrence `n` (0 is the first) of a schedule starting at `startsLocal`. */
export function occurrenceLocal(startsLocal: string, repeat: Repeat, n: number): string {
  const w = parseLocal(startsLocal);
  if (!w) throw new RangeError(`not a wall-clock time: ${startsLocal}`);
  if (repeat === 'none' || n === 0) return formatWall(w);
  if (repeat === 'monthly') {
    const months = w.month - 1 + n;
    const year = w.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    return formatWall({ ...w, year, month, day: Math.min(w.day, daysInMonth(year, month)) });
  }
  const days = repeat === 'daily' ? n : 7 * n;
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return formatWall({ ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

export interface Calendar {
  startsLocal: string;
  timeZone: string;
  repeat: Repeat;
  /** Last day (inclusive, 'YYYY-MM-DD' on the wall clock) a repetition may fall on; null: no end. */
  repeatUntil: string | null;
}

/** Occurrence `n` as wall clock and instant, or null when the calendar has no such occurrence. */
export function occurrence(c: Calendar, n: number): { n: number; local: string; dueAt: Date } | null {
  if (n > 0 && c.repeat === 'none') return null;
  const local = occurrenceLocal(c.startsLocal, c.repeat, n);
  if (n > 0 && c.repeatUntil && local.slice(0, 10) > c.repeatUntil) return null;
  return { n, local, dueAt: zonedInstant(local, c.timeZone) };
}

/** The first `count` occurrences from `from` (what the form shows as 'Próximos envios'). */
export function upcoming(c: Calendar, from: number, count: number): { n: number; local: string; dueAt: Date }[] {
  const out: { n: number; local: string; dueAt: Date }[] = [];
  for (let n = from; out.length < count; n++) {
    const o = occurrence(c, n);
    if (!o) break;
    out.push(o);
  }
  return out;
}
