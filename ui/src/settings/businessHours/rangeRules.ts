import type { HourRange } from '../../../../api/models/BusinessHours';
import { SLOTS_PER_DAY } from '../../../../api/businessHours/week';

/** SPEC §9: a start at or after its end resets the end to the last slot. */
export function withStart(range: HourRange, startHourIndex: number): HourRange {
  return { startHourIndex, endHourIndex: startHourIndex >= range.endHourIndex ? SLOTS_PER_DAY : range.endHourIndex };
}

/** The next range starts where the last one ends (two slots long, within the day). */
export function nextRange(hours: HourRange[]): HourRange | undefined {
  const start = hours.length ? Math.max(...hours.map((h) => h.endHourIndex)) : 0;
  if (start >= SLOTS_PER_DAY) return undefined;
  return { startHourIndex: start, endHourIndex: Math.min(start + 2, SLOTS_PER_DAY) };
}
