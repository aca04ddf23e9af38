import { expect } from 'chai';
import { defaultDays, isWithinBusinessHours, localTime, slotLabel } from '../../api/businessHours/schedule';
import { WEEK_DAYS, type WeekSchedule } from '../../api/models/BusinessHours';

/** Mon–Fri 09:00–12:00 and 13:00–18:00, weekend closed. */
function officeHours(): WeekSchedule {
  const days = defaultDays();
  for (const d of WEEK_DAYS) {
    days[d] = d === 'sat' || d === 'sun' ? { active: false, hours: [] } : { active: true, hours: [{ startHourIndex: 36, endHourIndex: 48 }, { startHourIndex: 52, endHourIndex: 72 }] };
  }
  return days;
}

describe('isWithinBusinessHours: local weekday and time of the workspace zone', () => {
  const sp = 'America/Sao_Paulo';

  it('reads São Paulo wall-clock time (UTC-3 all year, no DST) in summer and winter alike', () => {
    expect(localTime(new Date('2025-01-06T12:00:00Z'), sp)).to.deep.equal({ day: 'mon', minutes: 9 * 60 });
    expect(localTime(new Date('2025-07-07T12:00:00Z'), sp)).to.deep.equal({ day: 'mon', minutes: 9 * 60 });
  });

  it('is open inside a range, closed at its end, in the lunch gap and before the first slot', () => {
    const s = officeHours();
    expect(isWithinBusinessHours(s, new Date('2025-01-06T12:00:00Z'), sp)).to.equal(true); // 09:00
    expect(isWithinBusinessHours(s, new Date('2025-01-06T14:59:00Z'), sp)).to.equal(true); // 11:59
    expect(isWithinBusinessHours(s, new Date('2025-01-06T15:00:00Z'), sp)).to.equal(false); // 12:00, end is exclusive
    expect(isWithinBusinessHours(s, new Date('2025-01-06T16:00:00Z'), sp)).to.equal(true); // 13:00
    expect(isWithinBusinessHours(s, new Date('2025-01-06T11:59:00Z'), sp)).to.equal(false); // 08:59
  });

  it('uses the local weekday when UTC has already moved to the next day', () => {
    const s = officeHours();
    s.mon.hours.push({ startHourIndex: 88, endHourIndex: 96 }); // 22:00–24:00 on Monday only
    // Tuesday 01:30 UTC is Monday 22:30 in São Paulo.
    expect(isWithinBusinessHours(s, new Date('2025-01-07T01:30:00Z'), sp)).to.equal(true);
    // Saturday 13:00 UTC is Saturday 10:00 local: the closed day wins.
    expect(isWithinBusinessHours(s, new Date('2025-01-11T13:00:00Z'), sp)).to.equal(false);
  });

  it('follows daylight saving time in another zone (Lisbon: UTC+0 in winter, UTC+1 in summer)', () => {
    const s = officeHours();
    const lisbon = 'Europe/Lisbon';
    expect(isWithinBusinessHours(s, new Date('2025-01-06T09:00:00Z'), lisbon)).to.equal(true); // 09:00 WET
    expect(isWithinBusinessHours(s, new Date('2025-07-07T08:00:00Z'), lisbon)).to.equal(true); // 09:00 WEST
    expect(isWithinBusinessHours(s, new Date('2025-07-07T07:30:00Z'), lisbon)).to.equal(false); // 08:30 WEST
    // The same instant is inside hours in Lisbon and outside in São Paulo (06:00).
    expect(isWithinBusinessHours(s, new Date('2025-01-06T09:00:00Z'), sp)).to.equal(false);
  });

  it('treats an inactive day as closed even with ranges, and defaults to São Paulo', () => {
    const s = officeHours();
    s.mon.active = false;
    expect(isWithinBusinessHours(s, new Date('2025-01-06T12:00:00Z'), sp)).to.equal(false);
    expect(isWithinBusinessHours(officeHours(), new Date('2025-01-06T12:00:00Z'))).to.equal(true);
  });

  it('defaults to Monday–Friday 08:00–18:00 with the weekend closed (issue 28), and labels 96 as 00:00', () => {
    const d = defaultDays();
    expect(Object.keys(d)).to.deep.equal([...WEEK_DAYS]);
    for (const day of WEEK_DAYS) expect(d[day]).to.deep.equal({ active: day !== 'sat' && day !== 'sun', hours: [{ startHourIndex: 32, endHourIndex: 72 }] });
    expect(isWithinBusinessHours(d, new Date('2025-01-06T11:00:00Z'), 'America/Sao_Paulo')).to.equal(true);
    expect(isWithinBusinessHours(d, new Date('2025-01-06T21:00:00Z'), 'America/Sao_Paulo')).to.equal(false);
    expect(isWithinBusinessHours(d, new Date('2025-01-04T14:00:00Z'), 'America/Sao_Paulo')).to.equal(false);
    expect([slotLabel(0), slotLabel(37), slotLabel(95), slotLabel(96)]).to.deep.equal(['00:00', '09:15', '23:45', '00:00']);
  });
});

describe('business-hours form helpers', () => {
  it('resets the end to the last slot when the start is moved to or past it, and keeps it otherwise', async () => {
    const { withStart, nextRange } = await import('../../ui/src/settings/businessHours/rangeRules');
    expect(withStart({ startHourIndex: 0, endHourIndex: 8 }, 8)).to.deep.equal({ startHourIndex: 8, endHourIndex: 96 });
    expect(withStart({ startHourIndex: 0, endHourIndex: 8 }, 20)).to.deep.equal({ startHourIndex: 20, endHourIndex: 96 });
    expect(withStart({ startHourIndex: 0, endHourIndex: 8 }, 4)).to.deep.equal({ startHourIndex: 4, endHourIndex: 8 });
    expect(nextRange([])).to.deep.equal({ startHourIndex: 0, endHourIndex: 2 });
    expect(nextRange([{ startHourIndex: 36, endHourIndex: 48 }])).to.deep.equal({ startHourIndex: 48, endHourIndex: 50 });
    expect(nextRange([{ startHourIndex: 90, endHourIndex: 95 }])).to.deep.equal({ startHourIndex: 95, endHourIndex: 96 });
    expect(nextRange([{ startHourIndex: 90, endHourIndex: 96 }])).to.equal(undefined);
  });
});
