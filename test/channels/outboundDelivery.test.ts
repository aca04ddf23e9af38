import { expect } from 'chai';
import { adapterFor, registerAdapter, unregisterAdapter, type ChannelAdapter, type OutboundMessage } from '../../api/channels/adapter';
import { ChannelSendError } from '../../api/channels/sendErrors';
import { sendMessage } from '../../api/inbox/sendMessage';
import { loadViewer } from '../../api/policy/conversations';
import { startUnstartedSends } from '../../api/channels/outbound/startChannelSend';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { delta, makeChannel, makeConversation, type TestChannel } from '../inbox/factories';
import { makeOwner, messageRow, prepareWorker, sendWorkflowResult, untilDeliveryState, withChannelWorker, type WorkerSetup } from './helpers';

/** A remote channel whose answers each test scripts: every call is recorded, whatever it answers. */
function remoteAdapter() {
  const calls: OutboundMessage[] = [];
  let answer: (m: OutboundMessage, attempt: number) => Promise<{ externalId?: string }> = async (m) => ({ externalId: `ext-${m.messageId}` });
  const adapter: ChannelAdapter = {
    type: 'custom',
    canReply: true,
    canDelete: false,
    remote: true,
    async send(_deps, _channel, message) {
      calls.push(message);
      return answer(message, calls.filter((c) => c.messageId === message.messageId).length);
    },
  };
  return { adapter, calls, script: (fn: typeof answer) => (answer = fn) };
}

describe('Outbound delivery: agent messages of remote channels go out through channel-send workflows, at least once and never twice', function () {
  this.timeout(90_000);
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: TestChannel;
  let previous: ChannelAdapter | undefined;
  const remote = remoteAdapter();

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('outbound') });
    worker = await prepareWorker();
    previous = adapterFor('custom');
    registerAdapter(remote.adapter);
  });
  after(async () => {
    unregisterAdapter('custom');
    if (previous) registerAdapter(previous);
    await worker?.connection.close();
    await api?.close();
  });
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    channel = await makeChannel(api.deps.knex, ws, 'custom');
    remote.calls.length = 0;
    remote.script(async (m) => ({ externalId: `ext-${m.messageId}` }));
  });

  const withWorker = (fn: () => Promise<void>) => withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 3, busyWaitMs: 50 } });
  const row = (id: number) => messageRow(api, id);
  const send = async (conversationId: number, text: string) => {
    const res = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: conversationId, content: delta(text), type: 0 } });
    expect(res.status).to.equal(201);
    return res.body.data as { id: number; status: number; deliveryState: string };
  };

  it('commits the message pending, then the workflow sends it once with the idempotency key and records the external id', async () => {
    const c = await makeConversation(api.deps, channel);
    await withWorker(async () => {
      const m = await send(c.conversationId, 'Olá!');
      expect(m).to.include({ status: 1, deliveryState: 'pending' });
      await untilDeliveryState(api, m.id, 'sent');
      const stored = await row(m.id);
      expect(stored).to.include({ status: 2, externalId: `ext-${m.id}` });
      expect(remote.calls).to.have.length(1);
      expect(remote.calls[0]).to.include({ messageId: m.id, recipient: c.visitor, text: 'Olá!', idempotencyKey: `balcao-msg-${m.id}` });
    });
  });

  it('an agent reply reaches the remote side exactly once when the first attempt fails transiently', async () => {
    const c = await makeConversation(api.deps, channel);
    remote.script(async (m, attempt) => {
      if (attempt === 1) throw new ChannelSendError('Serviço indisponível.', { transient: true });
      return { externalId: `ext-${m.messageId}` };
    });
    await withWorker(async () => {
      const m = await send(c.conversationId, 'Tente de novo');
      await untilDeliveryState(api, m.id, 'sent');
      expect(await sendWorkflowResult(api, m.id)).to.equal('sent');
    });
    expect(remote.calls).to.have.length(2);
    const m = await api.deps.knex('messages').where({ customerPlatformId: c.conversationId, sender: 'operator' }).first();
    expect(m).to.include({ deliveryState: 'sent', deliveryAttempts: 2, deliveryError: null });
  });

  it('a permanent failure marks the message failed with its reason; the agent retries it and it goes out', async () => {
    const c = await makeConversation(api.deps, channel);
    remote.script(async () => {
      throw new ChannelSendError('Fora da janela de 24 horas.', { transient: false, code: 131047 });
    });
    await withWorker(async () => {
      const m = await send(c.conversationId, 'Oi');
      await untilDeliveryState(api, m.id, 'failed');
      expect(await row(m.id)).to.include({ status: 1, deliveryError: 'Fora da janela de 24 horas.', externalId: null });
      const listed = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}`, { token: owner.token });
      expect(listed.body.data.find((x: { id: number }) => x.id === m.id)).to.include({ deliveryState: 'failed', deliveryError: 'Fora da janela de 24 horas.' });
      expect(remote.calls).to.have.length(1);

      remote.script(async (msg) => ({ externalId: `ext-${msg.messageId}` }));
      const retried = await api.request('POST', `/api/inbox/messages/${m.id}/retry`, { token: owner.token });
      expect(retried.status).to.equal(200);
      expect(retried.body.data).to.include({ deliveryState: 'pending', deliveryError: null });
      await untilDeliveryState(api, m.id, 'sent');
      expect(remote.calls).to.have.length(2);
    });
  });

  it('transient failures past the attempt limit end failed', async () => {
    const c = await makeConversation(api.deps, channel);
    remote.script(async () => {
      throw new ChannelSendError('Limite de envio atingido.', { transient: true, code: 130429 });
    });
    await withWorker(async () => {
      const m = await send(c.conversationId, 'Oi');
      await untilDeliveryState(api, m.id, 'failed');
      expect(await row(m.id)).to.include({ deliveryAttempts: 3, deliveryError: 'Limite de envio atingido.' });
    });
    expect(remote.calls).to.have.length(3);
  });

  it('retry answers 400 for a message that did not fail and 404 for another workspace', async () => {
    const c = await makeConversation(api.deps, channel);
    const [m] = await api.deps.knex('messages').insert({ workspaceId: ws.id, customerPlatformId: c.conversationId, callId: c.callId, content: '[]', text: 'x', type: 0, status: 2, sender: 'operator', deliveryState: 'sent' }).returning('id');
    const res = await api.request('POST', `/api/inbox/messages/${m.id}/retry`, { token: owner.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'messageId' });
    const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    expect((await api.request('POST', `/api/inbox/messages/${m.id}/retry`, { token: other.token })).status).to.equal(404);
  });

  it('a message committed while Temporal was away is started by the sweep and sent', async () => {
    const c = await makeConversation(api.deps, channel);
    const viewer = await loadViewer(api.deps.knex, { operatorId: owner.id, workspaceId: ws.id, accessLevel: 10 });
    const m = await sendMessage({ ...api.deps, temporal: undefined as never }, viewer, { id: c.conversationId, content: delta('Sem Temporal'), type: 0 });
    expect((await row(m.id)).deliveryStartedAt).to.equal(null);
    await withWorker(async () => {
      expect(await startUnstartedSends(api.deps, { olderThanMs: 0 })).to.be.greaterThanOrEqual(1);
      await untilDeliveryState(api, m.id, 'sent');
    });
    expect(remote.calls.filter((x) => x.messageId === m.id)).to.have.length(1);
  });

  it('the widget keeps its direct path: no delivery state, delivered at once', async () => {
    const widget = await makeChannel(api.deps.knex, ws, 'widget');
    const c = await makeConversation(api.deps, widget);
    const m = await send(c.conversationId, 'Oi widget');
    expect(m.deliveryState).to.equal(null);
    expect(await row(m.id)).to.include({ status: 2, deliveryState: null });
  });
});
