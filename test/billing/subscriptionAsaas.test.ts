import { expect } from 'chai';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { until } from '../channels/helpers';
import { AsaasFake } from '../fakes/asaas';
import { CNPJ, CPF, DAY, insertTrial, startBillingApi, subscriptionRow, type BillingApi, type RecordingPublisher } from './subscriptionFixtures';

const TOKEN = 'whk_Qm4pLx9Vd3mKc8RtZ1bNy6HsW4jEa0G7';

describe('billing API with Asaas (its loopback fake): subscribe by Pix and Boleto, paid through the webhook, delivered twice', function () {
  this.timeout(90_000);
  const fake = new AsaasFake();
  let api: TestApi;
  let billing: BillingApi;
  let publisher: RecordingPublisher;

  before(async () => {
    await fake.start();
    billing = await startBillingApi({ asaasApiKey: fake.apiKey, asaasApiUrl: fake.baseUrl, asaasWebhookToken: TOKEN });
    ({ api, publisher } = billing);
  });
  after(async () => {
    await billing?.close();
    await fake.stop();
  });

  async function trialOwner() {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const subscriptionId = await insertTrial(api.deps.knex, ws.id, new Date(Date.now() + 5 * DAY));
    return { ws, owner, subscriptionId };
  }
  const body = { license: 'business', agents: 5, whatsapp: 1, instagram: 0, campaign: 0, months: 1 };
  const hook = () => `${api.url}/api/hooks/asaas`;

  for (const method of ['pix', 'boleto'] as const) {
    it(`${method}: the charge is made at Asaas for the order (customer with the CPF/CNPJ, externalReference = order); PAYMENT_RECEIVED twice pays once and the lifecycle applies it`, async () => {
      const { ws, owner, subscriptionId } = await trialOwner();
      const document = method === 'pix' ? CPF : CNPJ;
      const res = await api.request('POST', '/api/payment/subscribe', { token: owner.token, body: { ...body, method, document } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const { invoiceId, transactionId } = res.body.data;
      const invoice = await api.deps.knex('invoices').where({ id: invoiceId }).first();
      const tx = await api.deps.knex('invoiceTransactions').where({ id: transactionId }).first();
      const payment = fake.payments.get(tx.providerReference)!;
      expect(payment).to.deep.include({ billingType: method === 'pix' ? 'PIX' : 'BOLETO', value: 449, externalReference: invoice.orderNumber, status: 'PENDING' });
      expect(fake.customers.get(payment.customer)!.cpfCnpj).to.equal(document.replace(/\D/g, ''));
      expect(invoice.providerCustomerId).to.equal(payment.customer);
      expect(tx.paymentData.method).to.equal(method);

      // Asaas's test mode is not ours: there is nothing to simulate.
      expect((await api.request('POST', `/api/payment/invoices/${invoiceId}/transactions/${transactionId}/simulate`, { token: owner.token })).status).to.equal(404);

      const event = fake.pay(tx.providerReference);
      expect(await fake.deliver(hook(), event, { token: TOKEN, times: 2 })).to.deep.equal([200, 200]);
      await until(async () => (await subscriptionRow(api.deps.knex, subscriptionId)).license === 'business');
      expect((await api.deps.knex('invoices').where({ id: invoiceId }).first()).status).to.equal('paid');
      expect(await api.deps.knex('payment_events').where({ provider: 'asaas', eventId: event.id })).to.have.length(1);
      await until(async () => publisher.named('invoice.paid').some((e) => e.data.invoiceId === invoiceId));
      expect(publisher.named('invoice.paid').filter((e) => e.topic === `ws/${ws.id}/all`)).to.deep.equal([{ topic: `ws/${ws.id}/all`, event: 'invoice.paid', data: { invoiceId, transactionId } }]);
      await until(async () => publisher.named('subscription.updated').some((e) => e.data.subscription.id === subscriptionId && e.data.subscription.license === 'business'));
    });
  }

  it('a charge Asaas refuses leaves the invoice failed, says why in pt-BR, and gives the coupon back', async () => {
    const { owner } = await trialOwner();
    const code = `FALHA${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    await api.deps.knex('coupons').insert({ code, percent: 10, charges: 1 });
    fake.inject('POST', /^\/payments$/, 400, { errors: [{ code: 'invalid_customer', description: 'O cliente informado não pode receber cobranças.' }] });
    const res = await api.request('POST', '/api/payment/subscribe', { token: owner.token, body: { ...body, method: 'pix', document: CPF, coupon: code } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].descriptions).to.deep.equal(['O cliente informado não pode receber cobranças.']);
    const invoice = await api.deps.knex('invoices').where({ workspaceId: owner.workspaceId }).first();
    expect(invoice.status).to.equal('failed');
    expect((await api.deps.knex('invoiceTransactions').where({ invoiceId: invoice.id }).first()).status).to.equal('failed');
    expect(await api.deps.knex('coupon_redemptions').where({ workspaceId: owner.workspaceId })).to.deep.equal([]);
  });
});
