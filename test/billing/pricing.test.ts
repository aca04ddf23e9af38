import { expect } from 'chai';
import { AppError } from '../../api/http/errors';
import { ANNUAL_MONTHS, EXTRA_PRICES, PLANS, periodPrice } from '../../api/billing/plans';
import { QUOTE_MESSAGES, quote, validateQuote, type CurrentSubscription, type QuoteInput } from '../../api/billing/pricing';
import { calendarDay, daysBetween, percentOf, prorate, unusedCredit } from '../../api/billing/proration';

/** The input of a quote with the plan's own included units, overridden by `over`. */
function input(license: 'basic' | 'business' | 'enterprise', over: Partial<QuoteInput> = {}): QuoteInput {
  const inc = PLANS[license].included;
  return { license, agents: inc.agents, whatsapp: inc.whatsapp, instagram: inc.instagram, campaign: inc.campaign, months: 1, today: '2026-11-01', ...over };
}

function current(license: CurrentSubscription['subscription']['license'], over: Partial<CurrentSubscription['subscription']> = {}, money: Partial<Omit<CurrentSubscription, 'subscription'>> = {}): CurrentSubscription {
  const inc = (PLANS as Record<string, (typeof PLANS)['basic']>)[license]?.included ?? { agents: 5, whatsapp: 1, instagram: 0, campaign: 0 };
  return {
    subscription: { license, agents: inc.agents, numbers: inc.whatsapp, instagramUnits: inc.instagram, campaignUnits: inc.campaign, months: 1, status: 'active', ...over },
    paidAmount: 0,
    periodStart: '2026-11-01',
    periodEnd: '2026-12-01',
    ...money,
  };
}

function refusal(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    const e = err as AppError;
    expect(e.status).to.equal(400);
    return Object.fromEntries(e.entries.map((x) => [x.key, x.descriptions]));
  }
  throw new Error('expected a ValidationError');
}

describe('billing: prices of SPEC §1 and §9 in centavos', () => {
  it('plans cost 149, 449 and 799 a month with 1/5/10 agents, 1 line, and 0/0/1 campaigns; the trial is priced like Business', () => {
    expect(PLANS.basic).to.deep.include({ monthlyPrice: 14900, included: { agents: 1, whatsapp: 1, instagram: 0, campaign: 0 } });
    expect(PLANS.business).to.deep.include({ monthlyPrice: 44900, included: { agents: 5, whatsapp: 1, instagram: 0, campaign: 0 } });
    expect(PLANS.enterprise).to.deep.include({ monthlyPrice: 79900, included: { agents: 10, whatsapp: 1, instagram: 0, campaign: 1 } });
    expect(PLANS.trial).to.deep.include({ monthlyPrice: PLANS.business.monthlyPrice, included: PLANS.business.included });
  });

  it('extras cost 49 an agent, 99 a WhatsApp line, 149 a parallel campaign; Instagram has no price', () => {
    expect(EXTRA_PRICES).to.deep.equal({ agents: 4900, whatsapp: 9900, campaign: 14900, instagram: 0 });
  });

  it('a new subscription is plan + extras for the totals asked (included units counted in), charged now', () => {
    const q = quote(input('business', { agents: 7, whatsapp: 2, instagram: 3, campaign: 1 }));
    expect(q).to.deep.include({ kind: 'new', effective: 'now', subtotal: 44900 + 2 * 4900 + 9900 + 14900, discount: 0, credit: 0, total: 79500, proration: null });
    expect(q.items.map((i) => [i.kind, i.quantity, i.amount, i.description])).to.deep.equal([
      ['plan', 1, 44900, 'Plano Business (mensal)'],
      ['agents', 2, 9800, '2 agentes adicionais'],
      ['whatsapp', 1, 9900, '1 linha de WhatsApp adicional'],
      ['campaign', 1, 14900, '1 campanha paralela adicional'],
      ['instagram', 3, 0, 'Instagram: 3 unidades (sem custo)'],
    ]);
  });

  it('annual is 12 months at 12 times the monthly price (SPEC gives no annual discount)', () => {
    expect(ANNUAL_MONTHS).to.equal(12);
    for (const license of ['basic', 'business', 'enterprise'] as const) {
      const monthly = quote(input(license, { agents: PLANS[license].included.agents + 1 })).total;
      const annual = quote(input(license, { agents: PLANS[license].included.agents + 1, months: 12 }));
      expect(annual.total, license).to.equal(12 * monthly);
      expect(annual.items[0].description).to.match(/\(anual\)$/);
    }
  });

  it('docs/billing.md example 1: Business monthly with 2 extra agents and a 20% coupon is R$ 437,60', () => {
    const q = quote(input('business', { agents: 7, coupon: { code: 'BEMVINDO20', percent: 20, billing: 'any' } }));
    expect(q).to.deep.include({ subtotal: 54700, discount: 10940, credit: 0, total: 43760, effective: 'now' });
  });

  it('docs/billing.md example 2: Basic → Business on day 10 of 30 charges R$ 200,00 now and keeps the period end', () => {
    const q = quote(input('business', { current: current('basic', {}, { paidAmount: 14900 }), today: '2026-11-11' }));
    expect(q.proration).to.deep.equal({ periodDays: 30, remainingDays: 20 });
    expect(q).to.deep.include({ kind: 'upgrade', effective: 'now', subtotal: 29933, credit: 9933, discount: 0, total: 20000, periodPrice: 44900 });
  });

  it('docs/billing.md example 3: Enterprise → Business is a downgrade at the period end, charged the new price then', () => {
    const q = quote(input('business', { current: current('enterprise', {}, { paidAmount: 79900 }), today: '2026-11-11' }));
    expect(q).to.deep.include({ kind: 'downgrade', effective: 'period_end', subtotal: 44900, credit: 0, total: 44900, proration: null });
  });

  it('docs/billing.md example 4: Enterprise annual with 2 extra lines and a 10% annual coupon is R$ 10.767,60', () => {
    const q = quote(input('enterprise', { whatsapp: 3, months: 12, coupon: { code: 'ANUAL10', percent: 10, billing: 'annual' } }));
    expect(q).to.deep.include({ subtotal: 1196400, discount: 119640, total: 1076760 });
  });

  it('docs/billing.md example 5: monthly → annual mid-period starts a new annual period, minus the unused monthly time', () => {
    const q = quote(input('business', { months: 12, current: current('business', {}, { paidAmount: 44900 }), today: '2026-11-16' }));
    expect(q).to.deep.include({ kind: 'new', effective: 'now', subtotal: 538800, credit: prorate(44900, 15, 30), total: 538800 - 22450 });
  });

  it('a trial, an expired plan or a custom plan is followed by a new period, with no credit for unpaid time', () => {
    const trial = quote(input('basic', { current: current('trial', { agents: 1 }), today: '2026-11-03' }));
    expect(trial).to.deep.include({ kind: 'new', effective: 'now', credit: 0, total: 14900 });
    const expired = quote(input('basic', { current: current('business', { status: 'expired' }, { paidAmount: 44900 }), today: '2026-11-03' }));
    expect(expired).to.deep.include({ kind: 'new', credit: 0, total: 14900 });
    const ended = quote(input('basic', { current: current('business', {}, { paidAmount: 44900 }), today: '2026-12-02' }));
    expect(ended).to.deep.include({ kind: 'new', credit: 0 });
    // A custom plan ('pro') has no list price: its unused paid time is credited against the new period.
    const custom = quote(input('enterprise', { current: current('pro', {}, { paidAmount: 30000 }), today: '2026-11-16' }));
    expect(custom).to.deep.include({ kind: 'new', credit: 15000, total: 79900 - 15000 });
  });

  it('a canceled plan still in its paid period is changed like an active one', () => {
    const q = quote(input('enterprise', { current: current('business', { status: 'canceled' }, { paidAmount: 44900 }), today: '2026-11-16' }));
    expect(q.kind).to.equal('upgrade');
  });

  it('the same price taking nothing away (an Instagram unit) applies now at no charge; taking one away waits for the period end', () => {
    const more = quote(input('business', { instagram: 1, current: current('business', {}, { paidAmount: 44900 }), today: '2026-11-16' }));
    expect(more).to.deep.include({ kind: 'upgrade', effective: 'now', total: 0 });
    const less = quote(input('business', { instagram: 0, current: current('business', { instagramUnits: 2 }, { paidAmount: 44900 }), today: '2026-11-16' }));
    expect(less).to.deep.include({ kind: 'downgrade', effective: 'period_end' });
  });

  it('never answers a negative total: a credit larger than the charge is used only up to it', () => {
    const q = quote(input('business', { agents: 6, coupon: { code: 'X', percent: 90, billing: 'any' }, current: current('business', {}, { paidAmount: 44900 }), today: '2026-11-02' }));
    expect(q.kind).to.equal('upgrade');
    expect(q.total).to.equal(0);
    expect(q.credit).to.equal(q.subtotal - q.discount);
    expect(unusedCredit({ paidAmount: 44900, periodStart: '2026-11-01', periodEnd: '2026-12-01', today: '2026-11-02' })).to.be.greaterThan(q.credit);
  });
});

describe('billing: quote validation (pt-BR, every field at once)', () => {
  it('refuses agents below the plan’s included operators, and units below what the workspace uses, naming each', () => {
    const fields = refusal(() => quote(input('business', { agents: 4, whatsapp: 2, instagram: 1, usage: { agents: 3, whatsapp: 3, instagram: 2 } })));
    expect(fields).to.deep.equal({
      agents: ['O plano Business inclui 5 agentes: o total de agentes não pode ser menor que 5.'],
      whatsapp: ['Seu workspace tem 3 linhas de WhatsApp: o total de linhas não pode ser menor que 3. Exclua linhas antes de diminuir.'],
      instagram: ['Seu workspace tem 2 canais de Instagram: o total de Instagram não pode ser menor que 2. Exclua canais antes de diminuir.'],
    });
    const agents = refusal(() => quote(input('basic', { agents: 2, usage: { agents: 3, whatsapp: 0, instagram: 0 } })));
    expect(agents).to.deep.equal({ agents: ['Seu workspace tem 3 agentes ativos: o total de agentes não pode ser menor que 3. Desative agentes antes de diminuir.'] });
    const single = refusal(() => quote(input('basic', { whatsapp: 1, instagram: 0, usage: { agents: 1, whatsapp: 1, instagram: 1 } })));
    expect(single).to.deep.equal({ instagram: [QUOTE_MESSAGES.belowUsage.instagram(1)] });
    expect(QUOTE_MESSAGES.belowUsage.instagram(1)).to.equal('Seu workspace tem 1 canal de Instagram: o total de Instagram não pode ser menor que 1. Exclua canais antes de diminuir.');
  });

  it('refuses a line or a campaign below what the plan includes', () => {
    expect(refusal(() => quote(input('enterprise', { whatsapp: 0, campaign: 0 })))).to.deep.equal({
      whatsapp: ['O plano Enterprise inclui 1 linha de WhatsApp: o total de linhas não pode ser menor que 1.'],
      campaign: ['O plano Enterprise inclui 1 campanha paralela: o total de campanhas não pode ser menor que 1.'],
    });
  });

  it('refuses the trial, the custom plan, other billings, non-integers and absurd quantities', () => {
    const fields = refusal(() => quote({ license: 'trial', agents: 1.5, whatsapp: -1, instagram: 1000, campaign: Number.NaN, months: 6, today: '2026-11-01' }));
    expect(fields).to.deep.equal({
      license: [QUOTE_MESSAGES.license],
      months: ['Escolha a cobrança mensal ou anual (12 meses).'],
      agents: ['Informe um número inteiro de 0 a 999.'],
      whatsapp: ['Informe um número inteiro de 0 a 999.'],
      instagram: ['Informe um número inteiro de 0 a 999.'],
      campaign: ['Informe um número inteiro de 0 a 999.'],
    });
    expect(validateQuote(input('business', { license: 'pro' }))[0]).to.deep.equal({ key: 'license', descriptions: [QUOTE_MESSAGES.license] });
  });

  it('refuses a coupon for the other billing, and asking for exactly the subscription already held', () => {
    expect(refusal(() => quote(input('basic', { coupon: { code: 'A', percent: 10, billing: 'annual' } })))).to.deep.equal({ coupon: ['Este cupom vale apenas para a cobrança anual.'] });
    expect(refusal(() => quote(input('basic', { months: 12, coupon: { code: 'M', percent: 10, billing: 'monthly' } })))).to.deep.equal({ coupon: ['Este cupom vale apenas para a cobrança mensal.'] });
    expect(refusal(() => quote(input('business', { current: current('business', {}, { paidAmount: 44900 }) })))).to.deep.equal({ license: [QUOTE_MESSAGES.unchanged] });
  });
});

describe('billing: proration arithmetic (whole São Paulo days, centavos rounded half up)', () => {
  it('reads instants as São Paulo calendar days and counts days across months and leap years', () => {
    expect(calendarDay(new Date('2026-11-11T02:59:00Z'))).to.equal('2026-11-10');
    expect(calendarDay(new Date('2026-11-11T03:00:00Z'))).to.equal('2026-11-11');
    expect(calendarDay('2026-11-11T12:00:00-03:00')).to.equal('2026-11-11');
    expect(daysBetween('2026-01-31', '2026-03-01')).to.equal(29);
    expect(daysBetween('2028-01-31', '2028-03-01')).to.equal(30);
    expect(daysBetween('2026-11-11', '2027-11-11')).to.equal(365);
    expect(daysBetween('2026-12-01', '2026-11-01')).to.equal(-30);
  });

  it('rounds each prorated amount half up, in integers only', () => {
    expect(prorate(1, 1, 2)).to.equal(1);
    expect(prorate(3, 1, 2)).to.equal(2);
    expect(prorate(14900, 20, 30)).to.equal(9933);
    expect(prorate(44900, 20, 30)).to.equal(29933);
    expect(prorate(100, 5, 3)).to.equal(100);
    expect(prorate(100, -2, 3)).to.equal(0);
    expect(() => prorate(1.5, 1, 2)).to.throw(RangeError);
    expect(percentOf(54700, 20)).to.equal(10940);
    expect(percentOf(14900, 12.5)).to.equal(1863);
    expect(percentOf(1, 50)).to.equal(1);
  });

  it('credits unused time as paid amount × remaining days ÷ period days; nothing once the period ended', () => {
    const period = { periodStart: '2026-11-01', periodEnd: '2026-12-01' };
    expect(unusedCredit({ ...period, paidAmount: 14900, today: '2026-11-01' })).to.equal(14900);
    expect(unusedCredit({ ...period, paidAmount: 14900, today: '2026-11-11' })).to.equal(9933);
    expect(unusedCredit({ ...period, paidAmount: 14900, today: '2026-12-01' })).to.equal(0);
    expect(unusedCredit({ ...period, paidAmount: 14900, today: '2027-01-01' })).to.equal(0);
    expect(unusedCredit({ ...period, paidAmount: 14900, today: '2026-10-20' })).to.equal(14900);
  });
});

/**
 * The table: every plan × extras × coupon × monthly/annual, as a new subscription and as a change from
 * every other plan on several days. Expected values come from an oracle written apart from the code:
 * exact fractions in BigInt, rounded half up once per line.
 */
describe('billing: quote table (plan × extras × coupon × billing × change day)', () => {
  const licenses = ['basic', 'business', 'enterprise'] as const;
  const extrasSets = [
    { agents: 0, whatsapp: 0, campaign: 0, instagram: 0 },
    { agents: 2, whatsapp: 0, campaign: 0, instagram: 0 },
    { agents: 1, whatsapp: 2, campaign: 1, instagram: 3 },
  ];
  const coupons = [null, { code: 'P20', percent: 20, billing: 'any' as const }, { code: 'P125', percent: 12.5, billing: 'any' as const }, { code: 'ALL', percent: 100, billing: 'any' as const }];
  const monthsSet = [1, 12] as const;
  const listMonthly: Record<string, number> = { basic: 149_00, business: 449_00, enterprise: 799_00 };
  const perUnit = { agents: 49_00, whatsapp: 99_00, campaign: 149_00, instagram: 0 };

  const halfUp = (num: bigint, den: bigint) => Number((2n * num + den) / (2n * den));
  const lines = (license: string, extras: (typeof extrasSets)[number], months: number) =>
    [listMonthly[license], ...(['agents', 'whatsapp', 'campaign', 'instagram'] as const).map((k) => extras[k] * perUnit[k])].filter((a) => a > 0).map((a) => a * months);
  const totalsOf = (license: (typeof licenses)[number], extras: (typeof extrasSets)[number]) => {
    const inc = PLANS[license].included;
    return { agents: inc.agents + extras.agents, whatsapp: inc.whatsapp + extras.whatsapp, campaign: inc.campaign + extras.campaign, instagram: inc.instagram + extras.instagram };
  };

  let cases = 0;
  after(() => expect(cases).to.be.greaterThan(1000));

  it('new subscriptions: total = lines − coupon, never negative', () => {
    for (const license of licenses) {
      for (const extras of extrasSets) {
        for (const coupon of coupons) {
          for (const months of monthsSet) {
            const q = quote({ license, ...totalsOf(license, extras), months, coupon, today: '2026-11-01' });
            const subtotal = lines(license, extras, months).reduce((a, b) => a + b, 0);
            const discount = coupon ? halfUp(BigInt(subtotal) * BigInt(Math.round(coupon.percent * 100)), 10000n) : 0;
            const label = `${license} ${JSON.stringify(extras)} ${coupon?.code} ${months}`;
            expect(q.subtotal, label).to.equal(subtotal);
            expect(q.discount, label).to.equal(discount);
            expect(q.total, label).to.equal(subtotal - discount);
            expect(q.total, label).to.be.at.least(0);
            expect(q.periodPrice, label).to.equal(subtotal);
            cases++;
          }
        }
      }
    }
  });

  it('changes from every plan on days 0, 1, 10, 15 and the last: upgrades prorate the rest of the period, downgrades wait for its end', () => {
    const periods = { 1: { start: '2026-11-01', end: '2026-12-01', days: 30 }, 12: { start: '2026-11-01', end: '2027-11-01', days: 365 } } as const;
    for (const fromLicense of licenses) {
      for (const fromExtras of extrasSets) {
        for (const months of monthsSet) {
          const period = periods[months];
          const fromTotals = totalsOf(fromLicense, fromExtras);
          const fromPrice = lines(fromLicense, fromExtras, months).reduce((a, b) => a + b, 0);
          const paid = fromPrice - (fromLicense === 'business' ? percentOf(fromPrice, 20) : 0);
          for (const toLicense of licenses) {
            for (const toExtras of extrasSets) {
              const toTotals = totalsOf(toLicense, toExtras);
              if (fromLicense === toLicense && JSON.stringify(fromTotals) === JSON.stringify(toTotals)) continue;
              const toLines = lines(toLicense, toExtras, months);
              const toPrice = toLines.reduce((a, b) => a + b, 0);
              for (const day of [0, 1, 10, 15, period.days - 1]) {
                for (const coupon of [null, coupons[1]]) {
                  const today = new Date(Date.parse(`${period.start}T12:00:00-03:00`) + day * 86_400_000);
                  const cur: CurrentSubscription = {
                    subscription: { license: fromLicense, agents: fromTotals.agents, numbers: fromTotals.whatsapp, instagramUnits: fromTotals.instagram, campaignUnits: fromTotals.campaign, months, status: 'active' },
                    paidAmount: paid,
                    periodStart: period.start,
                    periodEnd: period.end,
                  };
                  const q = quote({ license: toLicense, ...toTotals, months, coupon, current: cur, today });
                  const label = `${fromLicense}${JSON.stringify(fromExtras)} → ${toLicense}${JSON.stringify(toExtras)} ${months}m day ${day} ${coupon?.code}`;
                  const remaining = BigInt(period.days - day);
                  const whole = BigInt(period.days);
                  const dearer = toPrice > fromPrice || (toPrice === fromPrice && (['agents', 'whatsapp', 'campaign', 'instagram'] as const).every((k) => toTotals[k] >= fromTotals[k]));
                  if (dearer) {
                    const subtotal = toLines.reduce((sum, a) => sum + halfUp(BigInt(a) * remaining, whole), 0);
                    const discount = coupon ? halfUp(BigInt(subtotal) * 2000n, 10000n) : 0;
                    const credit = Math.min(halfUp(BigInt(paid) * remaining, whole), subtotal - discount);
                    expect(q, label).to.deep.include({ kind: 'upgrade', effective: 'now', subtotal, discount, credit, total: subtotal - discount - credit });
                    expect(q.proration, label).to.deep.equal({ periodDays: period.days, remainingDays: period.days - day });
                  } else {
                    const discount = coupon ? halfUp(BigInt(toPrice) * 2000n, 10000n) : 0;
                    expect(q, label).to.deep.include({ kind: 'downgrade', effective: 'period_end', subtotal: toPrice, discount, credit: 0, total: toPrice - discount });
                  }
                  expect(q.total, label).to.be.at.least(0);
                  expect(q.items.reduce((s, i) => s + i.amount, 0), label).to.equal(q.subtotal);
                  cases++;
                }
              }
            }
          }
        }
      }
    }
  });

  it('monthly → annual starts a new annual period at once; annual → monthly waits for the annual period end', () => {
    for (const license of licenses) {
      for (const day of [0, 10, 29]) {
        const today = `2026-11-${String(1 + day).padStart(2, '0')}`;
        const paid = periodPrice(PLANS[license], totalsOf(license, extrasSets[0]), 1);
        const up = quote({ license, ...totalsOf(license, extrasSets[0]), months: 12, current: current(license, {}, { paidAmount: paid }), today });
        expect(up, `${license} day ${day}`).to.deep.include({ kind: 'new', effective: 'now', subtotal: paid * 12, credit: halfUp(BigInt(paid) * BigInt(30 - day), 30n) });
        const down = quote({ license, ...totalsOf(license, extrasSets[0]), months: 1, current: current(license, { months: 12 }, { paidAmount: paid * 12, periodEnd: '2027-11-01' }), today });
        expect(down, `${license} day ${day}`).to.deep.include({ kind: 'downgrade', effective: 'period_end', total: paid, credit: 0 });
        cases += 2;
      }
    }
  });
});
