import type { WeekDay, WeekSchedule } from '../models/BusinessHours';
import { SLOTS_PER_DAY, WEEK_DAYS } from './week';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';
const MINUTES_PER_SLOT = (24 * 60) / SLOTS_PER_DAY;

/** 08:00 and 18:00 as 15-minute slots. */
const OFFICE_HOURS = { startHourIndex: 32, endHourIndex: 72 };

/**
 * A new schedule: Monday to Friday 08:00–18:00, the weekend closed (its days keep the same range, ready for
 * when they are switched on). Issue 28 replaces SPEC §9's default (all seven days, 00:00–00:30), which no
 * business keeps; docs/decisions.md says so.
 */
export function defaultDays(): WeekSchedule {
  return Object.fromEntries(WEEK_DAYS.map((d) => [d, { active: d !== 'sat' && d !== 'sun', hours: [{ ...OFFICE_HOURS }] }])) as WeekSchedule;
}

/** Slot index → 'HH:MM'. The end of the day (96) reads as 00:00, as SPEC §9 shows the last slot. */
export function slotLabel(index: number): string {
  const minutes = (index * MINUTES_PER_SLOT) % (24 * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const WEEKDAY_BY_SHORT: Record<string, WeekDay> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The weekday and minute of the day of `date` on the wall clock of `timeZone`. */
export function localTime(date: Date, timeZone: string): { day: WeekDay; minutes: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatterFor(timeZone).formatToParts(date);
  } catch {
    // An unknown zone stored on a workspace must not stop assignment: fall back to the product default.
    parts = formatterFor(DEFAULT_TIME_ZONE).formatToParts(date);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: WEEKDAY_BY_SHORT[get('weekday')], minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** True when `date` falls in one of the ranges of its local weekday ([start, end) in 15-minute slots). */
export function isWithinBusinessHours(schedule: WeekSchedule, date: Date, timeZone: string = DEFAULT_TIME_ZONE): boolean {
  const { day, minutes } = localTime(date, timeZone || DEFAULT_TIME_ZONE);
  const today = schedule[day];
  if (!today?.active) return false;
  return today.hours.some((h) => minutes >= h.startHourIndex * MINUTES_PER_SLOT && minutes < h.endHourIndex * MINUTES_PER_SLOT);
}
