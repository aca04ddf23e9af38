import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { COUPON_MESSAGES, couponRefusal, redeemCoupon, takeCouponCharge, type CouponRow } from '../../api/billing/coupons';
import { AppError } from '../../api/http/errors';

const DAY = 86_400_000;

async function makeCoupon(knex: Knex, over: Record<string, unknown> = {}): Promise<{ id: number; code: string }> {
  const code = unique('CUPOM').replace(/[^A-Za-z0-9-]/g, '').toUpperCase().slice(0, 40);
  const [row] = await knex('coupons').insert({ code, percent: 20, charges: 3, billing: 'any', ...over }).returning(['id', 'code']);
  return row;
}

describe('billing: coupon rules (pure)', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const base: CouponRow = { id: 1, code: 'X', percent: 20, charges: 3, billing: 'any', maxRedemptions: null, isActive: true, expiresAt: null, createdAt: now };
  const ctx = { redemptions: 0, usedHere: false, now };

  it('answers why a coupon cannot be used, in the order a user would fix it, or null', () => {
    expect(couponRefusal(base, ctx)).to.equal(null);
    expect(couponRefusal(undefined, ctx)).to.equal('Cupom inválido.');
    expect(couponRefusal({ ...base, isActive: false }, ctx)).to.equal(COUPON_MESSAGES.invalid);
    expect(couponRefusal({ ...base, expiresAt: new Date(now.getTime()) }, ctx)).to.equal('Este cupom expirou.');
    expect(couponRefusal({ ...base, expiresAt: new Date(now.getTime() + 1) }, ctx)).to.equal(null);
    expect(couponRefusal(base, { ...ctx, usedHere: true })).to.equal('Este cupom já foi usado neste workspace.');
    expect(couponRefusal({ ...base, maxRedemptions: 2 }, { ...ctx, redemptions: 2 })).to.equal('Este cupom atingiu o limite de usos.');
    expect(couponRefusal({ ...base, maxRedemptions: 2 }, { ...ctx, redemptions: 1 })).to.equal(null);
    expect(couponRefusal({ ...base, billing: 'annual' }, { ...ctx, months: 1 })).to.equal('Este cupom vale apenas para a cobrança anual.');
    expect(couponRefusal({ ...base, billing: 'monthly' }, { ...ctx, months: 12 })).to.equal('Este cupom vale apenas para a cobrança mensal.');
    expect(couponRefusal({ ...base, billing: 'monthly' }, ctx), 'billing not chosen yet').to.equal(null);
  });
});

describe('billing: GET /api/payment/cupom/verify and coupon redemptions', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;

  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    await api.deps.rateLimiter.reset();
  });

  const verify = (query: string, token = owner.token) => api.request('GET', `/api/payment/cupom/verify?${query}`, { token });
  const refusedWith = (res: { status: number; body: any }, description: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'code', descriptions: [description] }]);
  };

  it('answers the coupon’s percent, charges and billing, whatever the case typed', async () => {
    const c = await makeCoupon(api.deps.knex, { percent: 12.5, charges: 2, billing: 'annual' });
    const res = await verify(`code=${encodeURIComponent(` ${c.code.toLowerCase()} `)}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { code: c.code, percent: 12.5, charges: 2, billing: 'annual' } });
    expect((await verify(`code=${c.code}&months=12`)).status).to.equal(200);
  });

  it('refuses in pt-BR on `code`: unknown, disabled, expired, used up, already used here, other billing, empty', async () => {
    const knex = api.deps.knex;
    refusedWith(await verify('code=NAOEXISTE'), 'Cupom inválido.');
    refusedWith(await verify(`code=${(await makeCoupon(knex, { isActive: false })).code}`), 'Cupom inválido.');
    refusedWith(await verify(`code=${(await makeCoupon(knex, { expiresAt: new Date(Date.now() - DAY) })).code}`), 'Este cupom expirou.');
    const full = await makeCoupon(knex, { maxRedemptions: 1 });
    const other = await makeWorkspace(knex);
    await knex('couponRedemptions').insert({ couponId: full.id, workspaceId: other.id, chargesLeft: 2 });
    refusedWith(await verify(`code=${full.code}`), 'Este cupom atingiu o limite de usos.');
    const mine = await makeCoupon(knex);
    await knex('couponRedemptions').insert({ couponId: mine.id, workspaceId: ws.id, chargesLeft: 0 });
    refusedWith(await verify(`code=${mine.code}`), 'Este cupom já foi usado neste workspace.');
    refusedWith(await verify(`code=${(await makeCoupon(knex, { billing: 'monthly' })).code}&months=12`), 'Este cupom vale apenas para a cobrança mensal.');
    refusedWith(await verify('code=%20'), 'Informe o código do cupom.');
    const badMonths = await verify('code=X&months=6');
    expect(badMonths.status).to.equal(400);
    expect(badMonths.body.errors[0].key).to.equal('months');
  });

  it('is for the plan’s managers (level 9+, SPEC §6); without a session it is a 401', async () => {
    const c = await makeCoupon(api.deps.knex);
    for (const level of [2, 3, 6] as const) {
      const member = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, level);
      expect((await verify(`code=${c.code}`, member.token)).status, `level ${level}`).to.equal(403);
    }
    const admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9);
    expect((await verify(`code=${c.code}`, admin.token)).status).to.equal(200);
    expect((await api.request('GET', `/api/payment/cupom/verify?code=${c.code}`)).status).to.equal(401);
  });

  it('slows down guessing: 30 refused codes in 10 minutes per workspace, then 429; a valid code costs nothing', async () => {
    const c = await makeCoupon(api.deps.knex);
    for (let i = 0; i < 40; i++) expect((await verify(`code=${c.code}`)).status).to.equal(200);
    for (let i = 0; i < 30; i++) expect((await verify(`code=ERRADO${i}`)).status).to.equal(400);
    const limited = await verify(`code=${c.code}`);
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
  });

  describe('redemption (used by the subscribe call) and renewals', () => {
    it('redeeming spends the first charge and marks the coupon used for this workspace; the last redemption goes to one workspace only', async () => {
      const knex = api.deps.knex;
      const c = await makeCoupon(knex, { charges: 3, maxRedemptions: 1 });
      const others = await Promise.all([makeWorkspace(knex), makeWorkspace(knex), makeWorkspace(knex)]);
      const attempts = await Promise.allSettled(
        others.map((w) => knex.transaction((trx) => redeemCoupon(trx, { workspaceId: w.id, subscriptionId: null, code: c.code.toLowerCase(), months: 1 }))),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).to.have.length(1);
      const refused = attempts.find((a): a is PromiseRejectedResult => a.status === 'rejected')!.reason as AppError;
      expect(refused.entries[0]).to.deep.include({ key: 'coupon', descriptions: ['Este cupom atingiu o limite de usos.'] });
      const rows = await knex('couponRedemptions').where({ couponId: c.id });
      expect(rows.map((r: { chargesLeft: number }) => r.chargesLeft)).to.deep.equal([2]);
    });

    it('renewals take the remaining charges one by one, then none; a coupon for the other billing gives nothing', async () => {
      const knex = api.deps.knex;
      const [sub] = await knex('subscriptions').insert({ workspaceId: ws.id, license: 'business', expiresAt: new Date(Date.now() + 30 * DAY) }).returning('id');
      const c = await makeCoupon(knex, { charges: 3, percent: 15, billing: 'monthly' });
      const redeemed = await knex.transaction((trx) => redeemCoupon(trx, { workspaceId: ws.id, subscriptionId: sub.id, code: c.code, months: 1 }));
      expect(redeemed).to.deep.include({ code: c.code, percent: 15, charges: 3, billing: 'monthly' });
      const again = await knex.transaction((trx) => redeemCoupon(trx, { workspaceId: ws.id, subscriptionId: sub.id, code: c.code, months: 1 })).catch((err: unknown) => err);
      expect((again as AppError).entries[0].descriptions).to.deep.equal(['Este cupom já foi usado neste workspace.']);
      const take = (months = 1) => knex.transaction((trx) => takeCouponCharge(trx, { workspaceId: ws.id, subscriptionId: sub.id, months }));
      expect(await take(12)).to.equal(null);
      expect((await take())?.percent).to.equal(15);
      expect((await take())?.percent).to.equal(15);
      expect(await take()).to.equal(null);
      expect((await knex('couponRedemptions').where({ couponId: c.id }).first()).chargesLeft).to.equal(0);
    });
  });
});
