import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeWorkspace } from '../helpers/factories';
import { AsaasFake } from '../fakes/asaas';
import { paymentProvider } from '../../api/billing/providers';
import { asaasTokenMatches } from '../../api/billing/webhook';
import { sweepStoredHooks } from '../../api/channels/hooks/store';
import { hookInboundFor } from '../../api/channels/inbound';
import { until } from '../channels/helpers';
import { chargeRequest, makeInvoiceWithTransaction, statusesOf } from './providersSupport';

const TOKEN = 'whk_7fQ2pLx9Vd3mKc8RtZ1bNy6HsW4jEa0G';

describe('Asaas webhook POST /api/hooks/asaas: authenticated, stored, answered 200, applied once', function () {
  this.timeout(60_000);
  const fake = new AsaasFake();
  let api: TestApi;
  let workspaceId: number;

  before(async () => {
    await fake.start();
    api = await startTestApi({ asaasWebhookToken: TOKEN, asaasApiKey: fake.apiKey, asaasApiUrl: fake.baseUrl });
    workspaceId = (await makeWorkspace(api.deps.knex)).id;
  });
  after(async () => {
    await api?.close();
    await fake.stop();
  });

  const hook = () => `${api.url}/api/hooks/asaas`;
  const stored = (eventId: string) => api.deps.knex('hook_events').where({ source: 'asaas' }).whereRaw("payload -> 'payload' -> 'event' ->> 'eventId' = ?", [eventId]);
  const applied = (eventId: string) => api.deps.knex('payment_events').where({ provider: 'asaas', eventId });
  /** Every stored delivery of the event has been processed. */
  const settled = (eventId: string) => until(async () => (await stored(eventId).whereNull('processed_at')).length === 0);
  /** Delivers an event once, as Asaas does, and waits until it has been processed. */
  const applyEvent = async (event: { id: string }) => {
    expect(await fake.deliver(hook(), event, { token: TOKEN })).to.deep.equal([200]);
    await settled(event.id);
  };

  /** A charge at the fake with its invoice and transaction on our side. */
  async function invoiceAtAsaas(method: 'pix' | 'boleto' = 'pix') {
    const charge = await paymentProvider(api.deps).createCharge(chargeRequest(workspaceId, { method }));
    const ids = await makeInvoiceWithTransaction(api.deps.knex, workspaceId, charge.providerReference, method);
    return { paymentId: charge.providerReference, ids };
  }

  describe('authentication', () => {
    it('a wrong or missing asaas-access-token answers 401 and stores nothing', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const event = fake.pay(paymentId);
      expect(await fake.deliver(hook(), event, { token: 'outro-token-qualquer-de-32-caracteres' })).to.deep.equal([401]);
      expect(await fake.deliver(hook(), event, { token: null })).to.deep.equal([401]);
      expect(await fake.deliver(hook(), event, { token: TOKEN.slice(0, -1) })).to.deep.equal([401]);
      expect(await stored(event.id)).to.have.length(0);
      expect(await applied(event.id)).to.have.length(0);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'pending', transaction: 'pending' });
    });

    it('matches the token in constant time and matches nothing while ASAAS_WEBHOOK_TOKEN is unset', () => {
      expect(asaasTokenMatches(TOKEN, TOKEN)).to.equal(true);
      expect(asaasTokenMatches(TOKEN, undefined)).to.equal(false);
      expect(asaasTokenMatches(undefined, TOKEN)).to.equal(false);
      expect(asaasTokenMatches(`${TOKEN}x`, TOKEN)).to.equal(false);
    });

    it('an authenticated body that is not JSON is a 400', async () => {
      const res = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json', 'asaas-access-token': TOKEN }, body: '{"id": "evt_1", ' });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { errors: { descriptions: string[] }[] }).errors[0].descriptions).to.deep.equal(['JSON inválido.']);
    });
  });

  describe('events', () => {
    it('PAYMENT_RECEIVED answers 200 and marks the transaction and its invoice paid, with the payer’s date', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const event = fake.pay(paymentId, 'RECEIVED', '2026-11-21');
      const res = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json', 'asaas-access-token': TOKEN }, body: JSON.stringify(event) });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ data: { received: true } });
      await settled(event.id);
      const after = await statusesOf(api.deps.knex, ids);
      expect(after).to.include({ invoice: 'paid', transaction: 'paid', paymentMethod: 'pix' });
      expect(after.invoicePaidAt?.toISOString()).to.equal('2026-11-21T15:00:00.000Z');
    });

    it('the same event delivered 10 times at once is answered 200 every time and applied once', async () => {
      const { paymentId, ids } = await invoiceAtAsaas('boleto');
      const event = fake.pay(paymentId, 'CONFIRMED');
      const statuses = await fake.deliver(hook(), event, { token: TOKEN, times: 10, concurrent: true });
      expect(statuses).to.deep.equal(Array(10).fill(200));
      await until(async () => (await stored(event.id)).length === 10);
      await settled(event.id);
      expect(await applied(event.id)).to.have.length(1);
      const first = await statusesOf(api.deps.knex, ids);
      expect(first).to.include({ invoice: 'paid', transaction: 'paid', paymentMethod: 'boleto' });

      // Delivered again later (Asaas retries what it thinks failed): nothing moves.
      const updatedAt = (await api.deps.knex('invoices').where({ id: ids.invoiceId }).first('updatedAt')).updatedAt as Date;
      expect(await fake.deliver(hook(), event, { token: TOKEN, times: 3 })).to.deep.equal([200, 200, 200]);
      await settled(event.id);
      expect(await applied(event.id)).to.have.length(1);
      expect((await api.deps.knex('invoices').where({ id: ids.invoiceId }).first('updatedAt')).updatedAt).to.deep.equal(updatedAt);
    });

    it('an event billing does not follow (PAYMENT_CREATED) is answered 200 and neither stored nor applied', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const event = fake.event(paymentId, 'PAYMENT_CREATED');
      const res = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json', 'asaas-access-token': TOKEN }, body: JSON.stringify(event) });
      expect(res.status).to.equal(200);
      expect(await stored(event.id)).to.have.length(0);
      expect(await applied(event.id)).to.have.length(0);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'pending', transaction: 'pending' });
    });

    it('PAYMENT_OVERDUE marks both overdue; a payment after that still pays them; a late PAYMENT_OVERDUE never unpays', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      fake.payments.get(paymentId)!.status = 'OVERDUE';
      const overdue = fake.event(paymentId, 'PAYMENT_OVERDUE');
      await applyEvent(overdue);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'overdue', transaction: 'overdue' });

      const received = fake.pay(paymentId);
      await applyEvent(received);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'paid', transaction: 'paid' });

      const late = fake.event(paymentId, 'PAYMENT_OVERDUE');
      await applyEvent(late);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'paid', transaction: 'paid' });
    });

    it('PAYMENT_REFUNDED after payment marks both refunded', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const received = fake.pay(paymentId);
      await applyEvent(received);
      fake.payments.get(paymentId)!.status = 'REFUNDED';
      const refunded = fake.event(paymentId, 'PAYMENT_REFUNDED');
      await applyEvent(refunded);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'refunded', transaction: 'refunded' });
    });

    it('PAYMENT_DELETED cancels a pending transaction, and its invoice only when no other charge of it is open', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const boleto = await paymentProvider(api.deps).createCharge(chargeRequest(workspaceId, { method: 'boleto' }));
      await api.deps.knex('invoice_transactions').insert({ workspaceId, invoiceId: ids.invoiceId, method: 'boleto', amount: 44_900, providerReference: boleto.providerReference });
      await paymentProvider(api.deps).cancelCharge(paymentId);
      const deleted = fake.event(paymentId, 'PAYMENT_DELETED');
      await applyEvent(deleted);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'pending', transaction: 'canceled' });

      await paymentProvider(api.deps).cancelCharge(boleto.providerReference);
      const alsoDeleted = fake.event(boleto.providerReference, 'PAYMENT_DELETED');
      await applyEvent(alsoDeleted);
      expect((await statusesOf(api.deps.knex, ids)).invoice).to.equal('canceled');
    });

    it('an event for a payment that is not ours is answered 200 and recorded, changing nothing', async () => {
      const charge = await paymentProvider(api.deps).createCharge(chargeRequest(workspaceId));
      const event = fake.pay(charge.providerReference);
      expect(await fake.deliver(hook(), event, { token: TOKEN })).to.deep.equal([200]);
      await settled(event.id);
      expect(await applied(event.id)).to.have.length(1);
    });

    it('a delivery whose processing was lost after the answer is applied by the hook store’s sweep', async () => {
      const { paymentId, ids } = await invoiceAtAsaas();
      const event = fake.pay(paymentId);
      // What the answer stores, as if the process died before processing it (no claim left).
      const verified = { channelIds: [], payload: { type: 'PAYMENT_RECEIVED', event: { eventId: event.id, providerReference: paymentId, status: 'paid', paidAt: new Date().toISOString() }, body: event } };
      await api.deps.knex('hook_events').insert({ source: 'asaas', object: 'PAYMENT_RECEIVED', payload: JSON.stringify(verified) });
      await sweepStoredHooks(api.deps);
      expect(await stored(event.id).whereNull('processed_at')).to.have.length(0);
      expect(await statusesOf(api.deps.knex, ids)).to.include({ invoice: 'paid', transaction: 'paid' });
    });
  });

  describe('routing', () => {
    it('asaas is no channel type: /api/hooks/asaas/{anything} is a 404 and no channel inbound half answers to it', async () => {
      expect(hookInboundFor('asaas')).to.equal(undefined);
      const res = await fetch(`${hook()}/abc`, { method: 'POST', headers: { 'content-type': 'application/json', 'asaas-access-token': TOKEN }, body: '{}' });
      expect(res.status).to.equal(404);
    });
  });
});
