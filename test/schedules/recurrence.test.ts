import { expect } from 'chai';
import { localOf, occurrence, occurrenceLocal, parseLocal, upcoming, zonedInstant } from '../../api/schedules/recurrence';
import { fillVariables, scheduleValues, unknownVariables } from '../../api/conversations/messageVariables';
import { ScheduleCreateSchema } from '../../api/schedules/schema';

describe('scheduled messages: the calendar and the variables (pure)', () => {
  it('reads a wall-clock time in the workspace’s zone and writes an instant back in it', () => {
    expect(zonedInstant('2026-12-01T09:00', 'America/Sao_Paulo').toISOString()).to.equal('2026-12-01T12:00:00.000Z');
    expect(zonedInstant('2026-12-01T09:00', 'Asia/Tokyo').toISOString()).to.equal('2026-12-01T00:00:00.000Z');
    expect(localOf(new Date('2026-12-01T12:00:00Z'), 'America/Sao_Paulo')).to.equal('2026-12-01T09:00');
  });

  it('keeps 09:00 at 09:00 across a change of offset (New York, March 2027)', () => {
    const before = occurrence({ startsLocal: '2027-03-13T09:00', timeZone: 'America/New_York', repeat: 'daily', repeatUntil: null }, 0)!;
    const after = occurrence({ startsLocal: '2027-03-13T09:00', timeZone: 'America/New_York', repeat: 'daily', repeatUntil: null }, 1)!;
    expect(before.dueAt.toISOString()).to.equal('2027-03-13T14:00:00.000Z');
    expect(after.dueAt.toISOString()).to.equal('2027-03-14T13:00:00.000Z');
    expect(localOf(after.dueAt, 'America/New_York')).to.equal('2027-03-14T09:00');
  });

  it('repeats weekly by 7 days and monthly on the same day, the 31st falling back to the last day of shorter months and coming back', () => {
    expect(occurrenceLocal('2026-12-30T18:30', 'weekly', 1)).to.equal('2027-01-06T18:30');
    expect([0, 1, 2, 3].map((n) => occurrenceLocal('2027-01-31T10:00', 'monthly', n))).to.deep.equal(['2027-01-31T10:00', '2027-02-28T10:00', '2027-03-31T10:00', '2027-04-30T10:00']);
    expect(occurrenceLocal('2027-12-15T10:00', 'monthly', 1)).to.equal('2028-01-15T10:00');
  });

  it('stops at the end date (inclusive) and a one-off schedule has one occurrence', () => {
    const c = { startsLocal: '2026-12-01T08:00', timeZone: 'America/Sao_Paulo', repeat: 'daily' as const, repeatUntil: '2026-12-03' };
    expect(upcoming(c, 0, 10).map((o) => o.local)).to.deep.equal(['2026-12-01T08:00', '2026-12-02T08:00', '2026-12-03T08:00']);
    expect(occurrence({ ...c, repeat: 'none' }, 1)).to.equal(null);
  });

  it('refuses dates that do not exist', () => {
    expect(parseLocal('2026-02-29T10:00')).to.equal(undefined);
    expect(parseLocal('2028-02-29T10:00')).to.deep.include({ day: 29 });
    expect(parseLocal('2026-12-01T24:00')).to.equal(undefined);
  });

  it('fills {{nome}}, {{primeiro_nome}} and {{protocolo}}, leaves other braces alone, and names a contact without a name "cliente"', () => {
    const values = scheduleValues('  Maria   da Silva ', 1234);
    expect(fillVariables('Olá {{primeiro_nome}} ({{ nome }}), protocolo {{protocolo}}. {{1}}', values)).to.equal('Olá Maria (Maria da Silva), protocolo 1234. {{1}}');
    expect(fillVariables('Oi {{nome}}', scheduleValues(null, null))).to.equal('Oi cliente');
    expect(unknownVariables('{{nome}} {{cpf}} {{cpf}} {{x_y}}')).to.deep.equal(['cpf', 'x_y']);
  });

  it('the form’s schema drops the end date of a one-off schedule and reports an empty message on `text`', () => {
    const ok = ScheduleCreateSchema.parse({ conversationId: 1, sendAt: '2026-12-01T09:00', repeatUntil: '2026-12-10', text: 'Oi' });
    expect(ok).to.include({ repeat: 'none', repeatUntil: null, file: null, template: null });
    const empty = ScheduleCreateSchema.safeParse({ conversationId: 1, sendAt: '2026-12-01T09:00', text: ' ' });
    expect(empty.success).to.equal(false);
    expect(empty.error?.issues.map((i) => i.path.join('.'))).to.deep.equal(['text']);
  });
});
