import { expect } from 'chai';
import { PLAN_EXPIRED_SEND, PLAN_LINK } from '../../api/billing/limits';
import { COUPON_MESSAGES } from '../../api/billing/coupons';
import { DOCUMENT_MESSAGES } from '../../api/billing/document';
import { QUOTE_MESSAGES } from '../../api/billing/pricing';
import { SUBSCRIBE_MESSAGES } from '../../api/billing/subscribe';
import { addPeriod } from '../../workflows/subscription/periods';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { until } from '../channels/helpers';
import { makeChannel, makeConversation } from '../inbox/factories';
import { decodePix } from './decoders/pix';
import { decodeDigitableLine } from './decoders/boleto';
import { CNPJ, CPF, DAY, insertPaidSubscription, insertTrial, startBillingApi, subscriptionRow, type BillingApi, type RecordingPublisher } from './subscriptionFixtures';

describe('billing API: subscribe, pay, change, cancel, invoices (test mode, real database, lifecycle on the dev server)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let billing: BillingApi;
  let publisher: RecordingPublisher;

  before(async () => {
    billing = await startBillingApi();
    ({ api, publisher } = billing);
  });
  after(() => billing?.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  /** A workspace on its trial (as signup leaves it), with its owner. */
  async function trialWorkspace(): Promise<{ ws: TestWorkspace; owner: TestOperator; subscriptionId: number }> {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const subscriptionId = await insertTrial(api.deps.knex, ws.id, new Date(Date.now() + 5 * DAY));
    return { ws, owner, subscriptionId };
  }

  const business = { license: 'business', agents: 5, whatsapp: 1, instagram: 0, campaign: 0, months: 1 } as const;
  const post = (token: string, path: string, body?: unknown) => api.request('POST', `/api/payment${path}`, { token, body });
  const get = (token: string, path: string) => api.request('GET', `/api/payment${path}`, { token });
  const simulate = (token: string, ids: { invoiceId: number; transactionId: number }) => post(token, `/invoices/${ids.invoiceId}/transactions/${ids.transactionId}/simulate`);

  it('GET /payment/plans and /payment/subscription: the price list, the contact, the trial with today’s usage, test mode', async () => {
    const { ws, owner, subscriptionId } = await trialWorkspace();
    const plans = await get(owner.token, '/plans');
    expect(plans.status).to.equal(200);
    expect(plans.body.data.plans.map((p: { license: string; price: number }) => [p.license, p.price])).to.deep.equal([['basic', 14_900], ['business', 44_900], ['enterprise', 79_900]]);
    expect(plans.body.data).to.deep.include({ extras: { agents: 4_900, whatsapp: 9_900, instagram: 0, campaign: 14_900 }, annualMonths: 12, testMode: true });
    expect(plans.body.data.contact.phones).to.have.length(2);

    const master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    const state = await get(master.token, '/subscription');
    expect(state.status).to.equal(200);
    expect(state.body.data.subscription).to.deep.include({ id: subscriptionId, license: 'trial', trial: true, status: 'active', canceledAt: null, scheduledChange: null });
    expect(state.body.data).to.deep.include({ usage: { agents: 2, whatsapp: 0, instagram: 0, campaign: 0 }, openInvoice: null, testMode: true });
  });

  it('refuses a bad subscribe body with every field at once, in pt-BR; the first subscription needs a CPF or CNPJ with valid digits', async () => {
    const { owner } = await trialWorkspace();
    const bad = await post(owner.token, '/subscribe', { license: 'gold', agents: -1, whatsapp: 1.5, instagram: 0, campaign: 0, months: 3, method: 'cartao', document: '123.456.789-00', extra: 1 });
    expect(bad.status).to.equal(400);
    const byKey = Object.fromEntries(bad.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
    expect(byKey).to.deep.equal({
      license: QUOTE_MESSAGES.license,
      agents: QUOTE_MESSAGES.units,
      whatsapp: QUOTE_MESSAGES.units,
      months: QUOTE_MESSAGES.months,
      method: 'Escolha a forma de pagamento: Pix ou Boleto.',
      document: DOCUMENT_MESSAGES.cpf,
      extra: 'Campo não permitido.',
    });
    const noDocument = await post(owner.token, '/subscribe', { ...business, method: 'pix' });
    expect(noDocument.status).to.equal(400);
    expect(noDocument.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'document', descriptions: [DOCUMENT_MESSAGES.required] }]);
    const badCnpj = await post(owner.token, '/subscribe', { ...business, method: 'pix', document: '11.444.777/0001-62' });
    expect(badCnpj.body.errors[0].descriptions).to.deep.equal([DOCUMENT_MESSAGES.cnpj]);
    expect(await api.deps.knex('invoices').where({ workspaceId: owner.workspaceId })).to.deep.equal([]);
  });

  it('POST /payment/quote answers the page’s live total, and the refusals by field instead of failing', async () => {
    const { ws, owner } = await trialWorkspace();
    const quote = await post(owner.token, '/quote', { ...business, agents: 7 });
    expect(quote.status).to.equal(200);
    expect(quote.body.data).to.deep.include({ subtotal: 54_700, discount: 0, credit: 0, total: 54_700, effective: 'now' });
    expect(quote.body.data.items.map((i: { label: string }) => i.label)).to.deep.equal(['Plano Business (mensal)', '2 agentes adicionais']);
    for (let i = 0; i < 2; i++) await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const refused = await post(owner.token, '/quote', { ...business, license: 'basic', agents: 1, coupon: 'NAOEXISTE' });
    expect(refused.status).to.equal(200);
    expect(refused.body.data.errors).to.deep.equal({ coupon: COUPON_MESSAGES.invalid, agents: QUOTE_MESSAGES.belowUsage.agents(3) });
    expect(refused.body.data.total).to.equal(0);
  });

  it('subscribes by Pix: the invoice, its transaction and a valid Pix charge; simulated, the payment is announced and the lifecycle starts the Business period on the payment day', async () => {
    const { ws, owner, subscriptionId } = await trialWorkspace();
    const res = await post(owner.token, '/subscribe', { ...business, agents: 6, method: 'pix', document: CPF });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { invoiceId, transactionId } = res.body.data;

    const detail = await get(owner.token, `/invoices/${invoiceId}`);
    expect(detail.status).to.equal(200);
    expect(detail.body.data.invoice).to.deep.include({ id: invoiceId, status: 'pending', kind: 'new', plan: 'business', total: 49_800, discount: 0, credit: 0, amount: 49_800, transactionId, coupon: null });
    expect(detail.body.data.payer).to.deep.equal({ name: ws.name, document: '52998224725', email: owner.email });
    const [tx] = detail.body.data.transactions;
    expect(tx).to.deep.include({ id: transactionId, method: 'pix', status: 'pending', amount: 49_800 });
    expect(decodePix(tx.payment.brCode).amount).to.equal(49_800);
    expect((await get(owner.token, '/subscription')).body.data.openInvoice).to.deep.include({ id: invoiceId, transactionId, amount: 49_800 });

    const paid = await simulate(owner.token, { invoiceId, transactionId });
    expect(paid.status).to.equal(200);
    expect(paid.body.data).to.deep.equal({ invoiceId, transactionId, status: 'paid' });
    expect(publisher.named('invoice.paid').filter((e) => e.topic === `ws/${ws.id}/all`)).to.deep.equal([{ topic: `ws/${ws.id}/all`, event: 'invoice.paid', data: { invoiceId, transactionId } }]);
    await until(async () => (await subscriptionRow(api.deps.knex, subscriptionId)).license === 'business');
    const sub = await subscriptionRow(api.deps.knex, subscriptionId);
    expect(sub).to.include({ status: 'active', agents: 6, numbers: 1, autorenewal: true, total: 49_800 });
    const paidAt = (await api.deps.knex('invoices').where({ id: invoiceId }).first()).paidAt as Date;
    expect(sub.expiresAt.toISOString()).to.equal(addPeriod(paidAt.toISOString(), 1));
    await until(async () => publisher.named('subscription.updated').some((e) => e.data.subscription.id === subscriptionId));

    const list = await api.request('GET', '/api/payment/invoices?_start=0&_end=999', { token: owner.token });
    expect(list.status).to.equal(200);
    expect(list.headers.get('x-total-count')).to.equal('1');
    expect(list.body).to.have.length(1);
    expect(list.body[0]).to.deep.include({ id: invoiceId, status: 'paid', amount: 49_800, transactionId });
    // Subscribing again while the plan is paid and in force: change it instead.
    const again = await post(owner.token, '/subscribe', { ...business, method: 'pix' });
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].descriptions).to.deep.equal([SUBSCRIBE_MESSAGES.alreadySubscribed]);
  });

  it('subscribes by Boleto: the digitable line and due date; a repeated simulation is one payment', async () => {
    const { owner, subscriptionId } = await trialWorkspace();
    const res = await post(owner.token, '/subscribe', { ...business, license: 'basic', agents: 1, months: 12, method: 'boleto', document: CNPJ });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const detail = (await get(owner.token, `/invoices/${res.body.data.invoiceId}`)).body.data;
    expect(detail.invoice).to.deep.include({ months: 12, amount: 178_800 });
    const boleto = detail.transactions[0].payment;
    expect(boleto.method).to.equal('boleto');
    const dueDate = new Date(detail.invoice.dueAt).toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
    expect(decodeDigitableLine(boleto.digitableLine, dueDate)).to.deep.include({ barcode: boleto.barcode, amount: 178_800, dueDate });
    expect(boleto.dueDate).to.equal(dueDate);

    expect((await simulate(owner.token, res.body.data)).status).to.equal(200);
    expect((await simulate(owner.token, res.body.data)).status).to.equal(200);
    expect(await api.deps.knex('payment_events').where({ providerReference: (await api.deps.knex('invoiceTransactions').where({ id: res.body.data.transactionId }).first()).providerReference })).to.have.length(1);
    expect(publisher.named('invoice.paid').filter((e) => e.data.invoiceId === res.body.data.invoiceId)).to.have.length(1);
    await until(async () => (await subscriptionRow(api.deps.knex, subscriptionId)).license === 'basic');
    expect((await subscriptionRow(api.deps.knex, subscriptionId)).months).to.equal(12);
  });

  describe('changing plan mid-period', () => {
    /** Basic paid 149,00 for 30 days, 10 days ago (docs/billing.md worked example 2). */
    async function basicTenDaysIn() {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const now = Date.now();
      const sub = await insertPaidSubscription(api.deps.knex, { license: 'basic', periodStart: new Date(now - 10 * DAY), expiresAt: new Date(now + 20 * DAY) }, ws);
      return { ws, owner, sub };
    }

    it('an upgrade is an invoice for the prorated difference (200,00), applied only when paid; the period end stays', async () => {
      const { owner, sub } = await basicTenDaysIn();
      const before = await subscriptionRow(api.deps.knex, sub.id);
      const res = await post(owner.token, `/${sub.id}/change`, { ...business, method: 'pix' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({ effective: 'now' });
      const invoice = (await get(owner.token, `/invoices/${res.body.data.invoiceId}`)).body.data.invoice;
      expect(invoice).to.deep.include({ kind: 'upgrade', total: 29_933, credit: 9_933, amount: 20_000 });
      expect((await subscriptionRow(api.deps.knex, sub.id)).license).to.equal('basic');

      await simulate(owner.token, res.body.data);
      await until(async () => (await subscriptionRow(api.deps.knex, sub.id)).license === 'business');
      const after = await subscriptionRow(api.deps.knex, sub.id);
      expect(after.expiresAt.toISOString()).to.equal(before.expiresAt.toISOString());
      expect(after).to.include({ agents: 5, total: 44_900, paidAmount: 29_933 });
    });

    it('a downgrade charges nothing and is scheduled for the period end; a change of another workspace’s subscription is a 404', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const now = Date.now();
      const expiresAt = new Date(now + 20 * DAY);
      const sub = await insertPaidSubscription(api.deps.knex, { license: 'enterprise', periodStart: new Date(now - 10 * DAY), expiresAt }, ws);
      const res = await post(owner.token, `/${sub.id}/change`, { ...business, method: 'boleto' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const change = { license: 'business', agents: 5, whatsapp: 1, instagram: 0, campaign: 0, months: 1, total: 44_900, at: expiresAt.toISOString() };
      expect(res.body.data).to.deep.equal({ invoiceId: null, transactionId: null, effective: 'period_end', scheduledChange: change });
      expect((await subscriptionRow(api.deps.knex, sub.id))).to.deep.include({ license: 'enterprise', scheduledChange: change });
      expect((await get(owner.token, '/subscription')).body.data.subscription.scheduledChange).to.deep.equal(change);
      expect(await api.deps.knex('invoices').where({ subscriptionId: sub.id, status: 'pending' })).to.deep.equal([]);

      const other = await trialWorkspace();
      expect((await post(other.owner.token, `/${sub.id}/change`, { ...business, method: 'pix', document: CPF })).status).to.equal(404);
      expect((await api.request('DELETE', `/api/payment/${sub.id}`, { token: other.owner.token })).status).to.equal(404);
    });
  });

  it('cancels without refund: active with canceledAt until expiresAt, renewal off, the unpaid invoice canceled with its charge; canceling again answers the same', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const now = Date.now();
    const sub = await insertPaidSubscription(api.deps.knex, { periodStart: new Date(now - 25 * DAY), expiresAt: new Date(now + 5 * DAY) }, ws);
    const up = await post(owner.token, `/${sub.id}/change`, { ...business, agents: 6, method: 'pix' });
    expect(up.status, JSON.stringify(up.body)).to.equal(200);

    const res = await api.request('DELETE', `/api/payment/${sub.id}`, { token: owner.token });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.include({ id: sub.id, status: 'active', autorenewal: false, scheduledChange: null });
    expect(res.body.data.canceledAt).to.be.a('string');
    expect((await api.deps.knex('invoices').where({ id: up.body.data.invoiceId }).first()).status).to.equal('canceled');
    const reference = (await api.deps.knex('invoiceTransactions').where({ id: up.body.data.transactionId }).first()).providerReference;
    expect((await api.deps.knex('test_mode_charges').where({ providerReference: reference }).first()).status).to.equal('deleted');
    const again = await api.request('DELETE', `/api/payment/${sub.id}`, { token: owner.token });
    expect(again.body.data.canceledAt).to.equal(res.body.data.canceledAt);
  });

  it('a coupon: 20% off the order, given back when the unpaid order is replaced, and refused once a paid order used it', async () => {
    const { owner } = await trialWorkspace();
    const code = `BEMVINDO${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    await api.deps.knex('coupons').insert({ code, percent: 20, charges: 3, billing: 'monthly' });
    const first = await post(owner.token, '/subscribe', { ...business, agents: 7, method: 'pix', document: CPF, coupon: code.toLowerCase() });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const invoice = (await get(owner.token, `/invoices/${first.body.data.invoiceId}`)).body.data.invoice;
    expect(invoice).to.deep.include({ total: 54_700, discount: 10_940, amount: 43_760, coupon: { code, percent: 20 } });

    const second = await post(owner.token, '/subscribe', { ...business, agents: 7, method: 'boleto', coupon: code });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    expect((await api.deps.knex('invoices').where({ id: first.body.data.invoiceId }).first()).status).to.equal('canceled');
    expect(await api.deps.knex('coupon_redemptions').where({ workspaceId: owner.workspaceId })).to.have.length(1);
    await simulate(owner.token, second.body.data);

    const third = await post(owner.token, '/quote', { ...business, agents: 8, coupon: code });
    expect(third.body.data.errors).to.deep.equal({ coupon: COUPON_MESSAGES.used });
  });

  it('access: reading is level 6+, changing 9+; another workspace’s invoice is a 404 to read and to simulate', async () => {
    const { ws, owner } = await trialWorkspace();
    const res = await post(owner.token, '/subscribe', { ...business, method: 'pix', document: CPF });
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    const admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9);
    expect((await get(agent.token, '/subscription')).status).to.equal(403);
    expect((await get(agent.token, '/invoices')).status).to.equal(403);
    expect((await get(master.token, `/invoices/${res.body.data.invoiceId}`)).status).to.equal(200);
    expect((await post(master.token, '/quote', business)).status).to.equal(403);
    expect((await simulate(master.token, res.body.data)).status).to.equal(403);
    expect((await post(admin.token, '/quote', business)).status).to.equal(200);

    const stranger = await trialWorkspace();
    expect((await get(stranger.owner.token, `/invoices/${res.body.data.invoiceId}`)).status).to.equal(404);
    expect((await simulate(stranger.owner.token, res.body.data)).status).to.equal(404);
    expect((await api.deps.knex('invoiceTransactions').where({ id: res.body.data.transactionId }).first()).status).to.equal('pending');
    expect((await api.request('GET', '/api/payment/invoices', { token: stranger.owner.token })).body).to.deep.include({ data: [], totalCount: 0 });
  });

  it('an expired plan sends no message (402 naming the plan, with the link) but keeps private notes; paid, sending works again', async () => {
    const { ws, owner, subscriptionId } = await trialWorkspace();
    await api.deps.knex('subscriptions').where({ id: subscriptionId }).update({ status: 'expired', expiresAt: new Date(Date.now() - DAY) });
    const conversation = await makeConversation(api.deps, await makeChannel(api.deps.knex, ws));
    const send = (type: 0 | 2) => api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: conversation.conversationId, content: [{ insert: 'Olá\n' }], type } });
    const refused = await send(0);
    expect(refused.status).to.equal(402);
    expect(refused.body.errors[0]).to.deep.include({ type: 'PaymentRequiredError', title: 'Plano expirado', descriptions: [PLAN_EXPIRED_SEND], link: PLAN_LINK });
    expect((await send(2)).status).to.equal(201);

    const res = await post(owner.token, '/subscribe', { ...business, method: 'pix', document: CPF });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await simulate(owner.token, res.body.data);
    await until(async () => (await subscriptionRow(api.deps.knex, subscriptionId)).status === 'active');
    expect((await send(0)).status).to.equal(201);
  });
});
