import { expect } from 'chai';
import { addPeriod, billingDayOf, nextStep, reminderKey, type LifecycleState } from '../../../workflows/subscription/periods';
import { documentProblem, DOCUMENT_MESSAGES } from '../../../api/billing/document';

const DAY = 86_400_000;

describe('the subscription calendar (workflows/subscription/periods.ts, pure)', () => {
  it('renews on the same day of the month in Brasília: the 31st falls on the last day of a short month and comes back; annual is 12 months', () => {
    // 31/01/2027 10:00 in Brasília.
    const jan31 = '2027-01-31T13:00:00.000Z';
    expect(billingDayOf(jan31)).to.equal(31);
    const feb = addPeriod(jan31, 1, 31);
    expect(feb).to.equal('2027-02-28T13:00:00.000Z');
    expect(addPeriod(feb, 1, 31)).to.equal('2027-03-31T13:00:00.000Z');
    expect(addPeriod(jan31, 12)).to.equal('2028-01-31T13:00:00.000Z');
    // 23:30 of 30 April in Brasília is already 1 May in UTC: the day is Brasília's (30 May, 23:30).
    expect(addPeriod('2027-05-01T02:30:00.000Z', 1)).to.equal('2027-05-31T02:30:00.000Z');
    expect(billingDayOf('2027-05-01T02:30:00.000Z')).to.equal(30);
  });

  const base = (over: Partial<LifecycleState> = {}): LifecycleState => ({
    status: 'active',
    license: 'business',
    autorenewal: true,
    canceled: false,
    periodStart: '2027-01-01T12:00:00.000Z',
    expiresAt: '2027-02-01T12:00:00.000Z',
    graceEndsAt: null,
    scheduledChangeAt: null,
    renewal: null,
    unapplied: 0,
    remindersSent: [],
    ...over,
  });
  const at = (iso: string) => Date.parse(iso);

  it('picks the next step: paid invoices first, then the renewal 7 days before, the 1-day reminder of an unpaid renewal, the end at the grace end', () => {
    expect(nextStep(base({ unapplied: 1, status: 'expired' }))).to.deep.equal({ kind: 'apply', at: 0 });
    expect(nextStep(base())).to.deep.equal({ kind: 'renewal', at: at('2027-02-01T12:00:00.000Z') - 7 * DAY });
    const issued = base({ renewal: { invoiceId: 1, status: 'pending' }, graceEndsAt: '2027-02-04T12:00:00.000Z', remindersSent: [reminderKey(7, '2027-02-01T12:00:00.000Z')] });
    expect(nextStep(issued)).to.deep.equal({ kind: 'reminder', days: 1, at: at('2027-02-01T12:00:00.000Z') - DAY });
    expect(nextStep({ ...issued, remindersSent: [...issued.remindersSent, reminderKey(1, issued.expiresAt)] })).to.deep.equal({ kind: 'end', at: at('2027-02-04T12:00:00.000Z') });
    expect(nextStep(base({ scheduledChangeAt: '2027-02-01T12:00:00.000Z', renewal: { invoiceId: 1, status: 'paid' } }))).to.deep.equal({ kind: 'scheduledChange', at: at('2027-02-01T12:00:00.000Z') });
    expect(nextStep(base({ status: 'canceled' }))).to.deep.equal({ kind: 'done' });
  });

  it('a canceled plan only ends; a trial gets its reminders unless one falls on its first day; a renewal retry waits', () => {
    expect(nextStep(base({ canceled: true, autorenewal: false }))).to.deep.equal({ kind: 'end', at: at('2027-02-01T12:00:00.000Z') });
    const trial = base({ license: 'trial', autorenewal: false, periodStart: '2027-01-25T12:00:00.000Z' });
    expect(nextStep(trial)).to.deep.equal({ kind: 'reminder', days: 1, at: at('2027-02-01T12:00:00.000Z') - DAY });
    const retry = at('2027-01-26T12:00:00.000Z');
    expect(nextStep(base(), { renewalRetryAt: retry })).to.deep.equal({ kind: 'renewal', at: retry });
  });

  it('checks the payer’s CPF or CNPJ by its check digits, punctuation allowed', () => {
    expect(documentProblem('529.982.247-25')).to.equal(null);
    expect(documentProblem('11.444.777/0001-61')).to.equal(null);
    expect(documentProblem('529.982.247-24')).to.equal(DOCUMENT_MESSAGES.cpf);
    expect(documentProblem('111.111.111-11')).to.equal(DOCUMENT_MESSAGES.cpf);
    expect(documentProblem('11.444.777/0001-60')).to.equal(DOCUMENT_MESSAGES.cnpj);
    expect(documentProblem('1234')).to.equal(DOCUMENT_MESSAGES.length);
    expect(documentProblem('')).to.equal(DOCUMENT_MESSAGES.required);
  });
});
