import type { WeekDay, WeekSchedule } from '../models/BusinessHours';
import { HISTOGRAM_BUCKETS } from './histogram';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const SLOT_MINUTES = 15;
const BY_INDEX: WeekDay[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * Milliseconds of an interval that fall inside a workspace's open hours (docs/reports.md "Business-hours
 * mode"). The schedule's ranges are wall-clock 15-minute slots of each weekday in the workspace's time zone;
 * each local day's open ranges are turned into instants once and kept, so a report's thousands of facts
 * cost a few lookups each.
 */
export class BusinessClock {
  private offsets = new Map<number, number>();
  private days = new Map<number, [number, number][]>();
  private readonly format: Intl.DateTimeFormat;

  constructor(
    private readonly schedule: WeekSchedule,
    timeZone: string,
  ) {
    this.format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
  }

  /** Local wall clock minus UTC at instant `t` (ms), cached per hour (zones change offset on the hour or half hour at most). */
  private offset(t: number): number {
    const key = Math.floor(t / (HOUR / 2));
    let o = this.offsets.get(key);
    if (o === undefined) {
      const at = key * (HOUR / 2);
      const p = Object.fromEntries(this.format.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
      o = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - at;
      this.offsets.set(key, o);
    }
    return o;
  }

  /** The instant of local wall-clock `localMs` (ms since the epoch as if the wall clock were UTC). */
  private instant(localMs: number): number {
    const guess = localMs - this.offset(localMs);
    return localMs - this.offset(guess);
  }

  /** The open ranges (instants) of the local day starting at wall-clock `localDay` (a multiple of DAY). */
  private rangesOf(localDay: number): [number, number][] {
    let ranges = this.days.get(localDay);
    if (!ranges) {
      const day = this.schedule[BY_INDEX[new Date(localDay).getUTCDay()]];
      ranges = day?.active ? day.hours.map((h) => [this.instant(localDay + h.startHourIndex * SLOT_MINUTES * MINUTE), this.instant(localDay + h.endHourIndex * SLOT_MINUTES * MINUTE)] as [number, number]) : [];
      this.days.set(localDay, ranges);
    }
    return ranges;
  }

  /** Open milliseconds between instants `start` and `end`. */
  openMs(start: number, end: number): number {
    if (end <= start) return 0;
    let total = 0;
    const first = Math.floor((start + this.offset(start)) / DAY) * DAY;
    const last = Math.floor((end + this.offset(end)) / DAY) * DAY;
    for (let d = first; d <= last; d += DAY) {
      for (const [a, b] of this.rangesOf(d)) {
        const from = Math.max(start, a);
        const to = Math.min(end, b);
        if (to > from) total += to - from;
      }
    }
    return total;
  }
}

/** report_bucket of the migration, in JavaScript (business-hours times are bucketed when read). */
export function bucketOf(ms: number): number {
  return ms < 1000 ? 1 : Math.min(HISTOGRAM_BUCKETS, 2 + Math.floor(4 * Math.log2(ms / 1000)));
}
