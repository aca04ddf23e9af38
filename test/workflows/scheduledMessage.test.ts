import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { RunScheduledMessageInput } from '../../activities/schedules/scheduleActivities';
import { OCCURRENCE_FAILURES } from '../../activities/schedules/storeOccurrence';
import { adapterFor, registerAdapter, unregisterAdapter, type ChannelAdapter, type OutboundMessage } from '../../api/channels/adapter';
import { startChannelSend } from '../../api/channels/outbound/startChannelSend';
import { createLogger } from '../../api/logger';
import { loadViewer } from '../../api/policy/conversations';
import type { TemporalGateway } from '../../api/temporal/client';
import { kickScheduledMessage } from '../../api/schedules/kick';
import { localOf } from '../../api/schedules/recurrence';
import { cancelSchedule, createSchedule, updateSchedule, type Saved } from '../../api/schedules/saveSchedule';
import type { ScheduleCreateReq } from '../../api/schedules/schema';
import { workflowIds } from '../../workflows/ids';
import type { ScheduledMessageStep } from '../../workflows';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { timeSkippingEnvironment } from '../helpers/temporal';
import { makeChannel, makeConversation, type TestChannel } from '../inbox/factories';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { addCloudLine, deliverCloudMessages } from '../channels/whatsapp/support';
import { RecordingPublisher } from './subscription/rows';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const ZONE = 'America/Sao_Paulo';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'lembrete',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'NAMED',
    components: [{ type: 'BODY', text: 'Oi {{nome}}! Seu horário está confirmado.', example: { body_text_named_params: [{ param_name: 'nome', example: 'Maria' }] } }],
  },
];

/** A remote channel (the custom type's slot) that records each send and answers an external id. */
function remoteAdapter() {
  const calls: OutboundMessage[] = [];
  const adapter: ChannelAdapter = {
    type: 'custom',
    canReply: false,
    canDelete: false,
    remote: true,
    async send(_deps, _channel, message) {
      calls.push(message);
      return { externalId: `ext-${message.messageId}` };
    },
  };
  return { adapter, calls };
}

describe('scheduledMessage workflow: sent at its time through the outbound path, repeated, canceled, and never lost or doubled across a worker outage (time-skipping server)', function () {
  this.timeout(180_000);
  const graph = new MetaGraphFake();
  const remote = remoteAdapter();
  let previous: ChannelAdapter | undefined;
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let api: TestApi;
  let taskQueue: string;
  let publisher: RecordingPublisher;
  let ws: TestWorkspace;
  let agent: TestOperator;
  let channel: TestChannel;
  let conversation: { conversationId: number; callId: number };
  /** Every look of the workflow at its row: what it asked (its clock) and what it got. */
  let looks: { input: RunScheduledMessageInput; step: ScheduledMessageStep }[];

  before(async () => {
    await graph.start();
    [env, bundle, api] = await Promise.all([
      timeSkippingEnvironment(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
      startTestApi({ temporalTaskQueue: unique('unused'), metaGraphUrl: graph.url }),
    ]);
    previous = adapterFor('custom');
    registerAdapter(remote.adapter);
  });
  after(async () => {
    unregisterAdapter('custom');
    if (previous) registerAdapter(previous);
    await env?.teardown();
    await api?.close();
    await graph.stop();
  });
  beforeEach(async () => {
    taskQueue = unique('schedules');
    publisher = new RecordingPublisher();
    remote.calls.length = 0;
    looks = [];
    ws = await makeWorkspace(api.deps.knex);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Agente' });
    channel = await makeChannel(api.deps.knex, ws, 'custom');
    conversation = await makeConversation(api.deps, channel, { name: 'Maria da Silva' });
  });

  const gateway = () => ({ client: async () => env.client, taskQueue }) as unknown as TemporalGateway;
  const deps = () => ({ knex: api.deps.knex, config: api.config, publisher });
  type Activities = ReturnType<typeof createActivities>;
  const activities = () => createActivities({ knex: api.deps.knex, publisher, logger: createLogger('silent'), config: api.config, temporal: gateway() }, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 3, busyWaitMs: 50 } });
  /** A worker with the real activities; each look at the row is recorded (and may be replaced by `look`). */
  const worker = (look?: (real: Activities['runScheduledMessage'], input: RunScheduledMessageInput) => Promise<ScheduledMessageStep>, options: { sticky?: boolean } = {}) => {
    const real = activities();
    return Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      // Without a cache the worker takes no sticky queue: a worker that is gone then leaves its workflows' next
      // tasks on the shared queue (the time-skipping server would time a dead sticky queue out on its frozen clock).
      ...(options.sticky === false ? { maxCachedWorkflows: 0 } : {}),
      activities: {
        ...real,
        runScheduledMessage: async (input: RunScheduledMessageInput) => {
          const step = await (look ? look(real.runScheduledMessage, input) : real.runScheduledMessage(input));
          looks.push({ input, step });
          return step;
        },
      },
    });
  };
  /** The time on the test server's clock (it runs ahead of the machine's once time was skipped). */
  const serverNow = async () => new Date(await env.currentTimeMs());

  /**
   * Creates a schedule `in` ms from now (the server's clock; `realClock`: the machine's, for a test about what
   * the send finds in the database rather than when) and tells its workflow.
   */
  async function schedule(input: Partial<ScheduleCreateReq> & { in?: number; realClock?: boolean } = {}, conversationId = conversation.conversationId, operator = agent): Promise<{ saved: Saved; dueAt: number; handle: WorkflowHandle }> {
    const now = input.realClock ? new Date() : await serverNow();
    const dueAt = now.getTime() + (input.in ?? HOUR);
    const viewer = await loadViewer(api.deps.knex, { workspaceId: ws.id, operatorId: operator.id, accessLevel: operator.accessLevel });
    const body: ScheduleCreateReq = { conversationId, sendAt: localOf(new Date(dueAt), ZONE), repeat: 'none', repeatUntil: null, text: 'Olá {{primeiro_nome}}, seu protocolo é {{protocolo}}.', file: null, template: null, ...input };
    delete (body as { in?: number }).in;
    delete (body as { realClock?: boolean }).realClock;
    const saved = await createSchedule(deps(), viewer, body, now);
    expect(await kickScheduledMessage({ knex: api.deps.knex, logger: createLogger('silent'), temporal: gateway() }, saved)).to.equal(true);
    // The wall clock has minutes: the due time is the start of the minute.
    return { saved, dueAt: Math.floor(dueAt / 60_000) * 60_000, handle: env.client.workflow.getHandle(workflowIds.scheduledMessage(saved.id)) };
  }
  const scheduledMessages = () => api.deps.knex('messages').where({ customerPlatformId: conversation.conversationId }).whereRaw("extra_data -> 'scheduled' IS NOT NULL").orderBy('id');
  const row = (id: number) => api.deps.knex('scheduled_messages').where({ id }).first();
  /** Resolves once the workflow sleeps on its due-time timer. */
  async function untilTimer(handle: WorkflowHandle): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const history = await handle.fetchHistory();
      if (history.events?.some((e) => e.timerStartedEventAttributes)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the workflow never started its timer');
  }

  it('waits until the due time, then sends the message once through the outbound delivery path, with its variables and its author', async () => {
    const { saved, dueAt, handle } = await schedule();
    const w = await worker();
    expect(await w.runUntil(handle.result())).to.equal('sent');

    // One look before the due time (wait), one at or after it (the send).
    expect(looks.map((l) => l.step.kind)).to.deep.equal(['wait', 'occurred']);
    expect(Date.parse(looks[0]!.input.asOf)).to.be.lessThan(dueAt);
    expect(Date.parse(looks[1]!.input.asOf)).to.be.at.least(dueAt);

    const protocol = (await api.deps.knex('calls').where({ id: conversation.callId }).first('protocol')).protocol;
    const messages = await scheduledMessages();
    expect(messages).to.have.length(1);
    const m = messages[0];
    expect(m).to.include({ text: `Olá Maria, seu protocolo é ${protocol}.`, type: 0, sender: 'operator', operatorId: agent.id, deliveryState: 'sent', externalId: `ext-${m.id}`, idempotencyKey: `scheduled-message:${saved.id}#0:text` });
    expect(m.extraData).to.deep.equal({ scheduled: { id: saved.id, by: { id: agent.id, name: 'Ana Agente' } } });
    expect(remote.calls).to.have.length(1);
    expect(remote.calls[0]).to.include({ messageId: m.id, idempotencyKey: `balcao-msg-${m.id}` });
    expect(await row(saved.id)).to.include({ state: 'sent', sentCount: 1, lastMessageId: m.id, error: null });
    // The team saw it arrive in the conversation.
    const told = publisher.events.filter((e) => e.event === 'chat.newMessage' && (e.data as { message?: { id: number } }).message?.id === m.id);
    expect(told.map((e) => e.topic)).to.include(`ws/${ws.id}/op/${agent.id}`);
  });

  it('repeats daily on its wall-clock time until its end date: each occurrence once, then it ends sent', async () => {
    const now = await serverNow();
    const first = new Date(now.getTime() + HOUR);
    const until = localOf(new Date(first.getTime() + 2 * DAY), ZONE).slice(0, 10);
    const { saved, dueAt, handle } = await schedule({ repeat: 'daily', repeatUntil: until, text: 'Bom dia, {{nome}}!' });
    const w = await worker();
    expect(await w.runUntil(handle.result())).to.equal('sent');

    const sends = looks.filter((l) => l.step.kind === 'occurred');
    expect(sends).to.have.length(3);
    sends.forEach((s, i) => expect(Date.parse(s.input.asOf)).to.be.within(dueAt + i * DAY, dueAt + i * DAY + 60_000));
    const messages = await scheduledMessages();
    expect(messages.map((m) => m.idempotencyKey)).to.deep.equal([0, 1, 2].map((n) => `scheduled-message:${saved.id}#${n}:text`));
    expect(messages.every((m) => m.text === 'Bom dia, Maria da Silva!')).to.equal(true);
    expect(remote.calls).to.have.length(3);
    expect(await row(saved.id)).to.include({ state: 'sent', sentCount: 3, occurrence: 2 });
    // Each repetition continued as new: the last run was continued from another and looked at its row only twice.
    const history = await handle.fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).to.be.a('string').and.not.equal('');
    expect(history.events?.filter((e) => e.activityTaskScheduledEventAttributes)).to.have.length(2);
  });

  it('a cancel wakes the waiting workflow, which ends canceled without sending anything', async () => {
    const { saved, handle } = await schedule({ in: 5 * HOUR });
    const viewer = await loadViewer(api.deps.knex, { workspaceId: ws.id, operatorId: agent.id, accessLevel: agent.accessLevel });
    const w = await worker();
    const result = await w.runUntil(async () => {
      await untilTimer(handle);
      const canceled = await cancelSchedule(deps(), viewer, saved.id);
      await kickScheduledMessage({ knex: api.deps.knex, logger: createLogger('silent'), temporal: gateway() }, canceled);
      return handle.result();
    });
    expect(result).to.equal('canceled');
    expect(await scheduledMessages()).to.have.length(0);
    expect(remote.calls).to.have.length(0);
    expect(await row(saved.id)).to.include({ state: 'canceled', sentCount: 0 });
  });

  it('an edit to an earlier time wakes the workflow, which then sends at the new time instead of the old one', async () => {
    const { saved, dueAt: oldDue, handle } = await schedule({ in: 10 * HOUR });
    const viewer = await loadViewer(api.deps.knex, { workspaceId: ws.id, operatorId: agent.id, accessLevel: agent.accessLevel });
    const w = await worker();
    let newDue = 0;
    const result = await w.runUntil(async () => {
      await untilTimer(handle);
      const now = await serverNow();
      newDue = Math.floor((now.getTime() + 2 * HOUR) / 60_000) * 60_000;
      const edited = await updateSchedule(deps(), viewer, saved.id, { sendAt: localOf(new Date(newDue), ZONE), repeat: 'none', repeatUntil: null, text: 'Novo horário', file: null, template: null }, now);
      await kickScheduledMessage({ knex: api.deps.knex, logger: createLogger('silent'), temporal: gateway() }, edited);
      return handle.result();
    });
    expect(result).to.equal('sent');
    const sent = looks.find((l) => l.step.kind === 'occurred')!;
    expect(Date.parse(sent.input.asOf)).to.be.within(newDue, oldDue - 1);
    expect((await scheduledMessages()).map((m) => m.text)).to.deep.equal(['Novo horário']);
  });

  it('a send that fell due while no worker was running goes out once as soon as a worker starts', async () => {
    const { saved, dueAt, handle } = await schedule();
    // A worker takes the workflow to its timer, then every worker is gone.
    const first = await worker(undefined, { sticky: false });
    await first.runUntil(untilTimer(handle));
    // The server's clock moves past the due time. (The test server skips time only while nothing is pending:
    // once the timer fires, its workflow task waits for a worker and the last second passes in real time.)
    await env.sleep(dueAt - (await env.currentTimeMs()) + 1000);
    expect(await env.currentTimeMs()).to.be.greaterThan(dueAt);
    // The timer fired on the server while no worker ran, and nothing went out.
    const history = await handle.fetchHistory();
    expect(history.events?.some((e) => e.timerFiredEventAttributes)).to.equal(true);
    expect(await scheduledMessages()).to.have.length(0);
    expect(remote.calls).to.have.length(0);

    const second = await worker();
    expect(await second.runUntil(handle.result())).to.equal('sent');
    const messages = await scheduledMessages();
    expect(messages).to.have.length(1);
    expect(messages[0].deliveryState).to.equal('sent');
    expect(remote.calls).to.have.length(1);
    expect(await row(saved.id)).to.include({ state: 'sent', sentCount: 1 });
  });

  it('an attempt whose answer is lost after its commit is retried without sending twice; the outbound sweep’s start delivers the stored message once', async () => {
    const { saved, handle } = await schedule();
    let lost = false;
    const w = await worker(async (real, input) => {
      const step = await real(input);
      if (step.kind === 'occurred' && !lost) {
        lost = true;
        throw new Error('worker died after the commit');
      }
      return step;
    });
    const result = await w.runUntil(async () => {
      const r = await handle.result();
      // The lost answer carried the deliveries: the message waits pending and unstarted, which is what the
      // outbound sweep (startUnstartedSends) starts; its start is run here for this message only.
      const [m] = await scheduledMessages();
      expect(m).to.include({ deliveryState: 'pending', deliveryStartedAt: null });
      expect(await startChannelSend({ knex: api.deps.knex, logger: createLogger('silent'), temporal: gateway() }, m.id)).to.equal(true);
      await env.client.workflow.getHandle(workflowIds.channelSend(m.id)).result();
      return r;
    });
    expect(lost).to.equal(true);
    expect(result).to.equal('sent');
    expect(looks.map((l) => l.step)).to.deep.include({ kind: 'done', state: 'sent' });
    const messages = await scheduledMessages();
    expect(messages).to.have.length(1);
    expect(messages[0].deliveryState).to.equal('sent');
    expect(remote.calls).to.have.length(1);
    expect(await row(saved.id)).to.include({ sentCount: 1 });
  });

  it('a text and a file go out as two messages, the text first', async () => {
    const key = unique('arquivo');
    await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key, fileName: 'cardapio.pdf', mime: 'application/pdf', size: 1234, sha256: 'x'.repeat(64) });
    const { handle } = await schedule({ text: 'Segue o cardápio', file: { key } });
    const w = await worker();
    expect(await w.runUntil(handle.result())).to.equal('sent');
    const messages = await scheduledMessages();
    expect(messages.map((m) => m.text)).to.deep.equal(['Segue o cardápio', 'cardapio.pdf']);
    expect(messages[1].content).to.deep.equal([{ file: { key, fileName: 'cardapio.pdf', mime: 'application/pdf', size: 1234 } }]);
    expect(remote.calls.map((c) => c.messageId)).to.deep.equal(messages.map((m) => m.id));
  });

  it('on the widget (no remote side) the message is delivered directly and marked received', async () => {
    const widget = await makeChannel(api.deps.knex, ws, 'widget');
    const c = await makeConversation(api.deps, widget, { name: 'Visitante' });
    const { handle } = await schedule({ text: 'Oi {{nome}}' }, c.conversationId);
    const w = await worker();
    expect(await w.runUntil(handle.result())).to.equal('sent');
    const m = await api.deps.knex('messages').where({ customerPlatformId: c.conversationId }).whereRaw("extra_data -> 'scheduled' IS NOT NULL").first();
    expect(m).to.include({ text: 'Oi Visitante', status: 2, deliveryState: null });
  });

  describe('WhatsApp Cloud', () => {
    const appSecret = 'segredo-do-app';

    async function cloudConversation(owner: TestOperator, ageMs: number) {
      const { line } = await addCloudLine(api, graph, owner, { appSecret, templates: TEMPLATES });
      const res = await deliverCloudMessages(api, line, appSecret, { waId: `55119${String(Date.now()).slice(-8)}`, name: 'Maria Cliente' }, [{ type: 'text', text: { body: 'Olá' } }]);
      expect(res.status).to.equal(200);
      const m = await api.deps.knex('messages').where({ channelId: line.id, sender: 'customer' }).orderBy('id', 'desc').first();
      await api.deps.knex('messages').where({ id: m.id }).update({ createdAt: new Date(Date.now() - ageMs) });
      return { conversationId: m.customerPlatformId as number, customerMessageId: m.id as number };
    }

    it('outside the 24-hour window the chosen template goes out at the due time, its variables filled for the contact', async () => {
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const { conversationId } = await cloudConversation(owner, 30 * HOUR);
      const { saved, handle } = await schedule({ text: '', template: { name: 'lembrete', language: 'pt_BR', header: {}, body: { nome: '{{primeiro_nome}}' } } }, conversationId, owner);
      const w = await worker();
      expect(await w.runUntil(handle.result())).to.equal('sent');
      expect(graph.sent).to.have.length(1);
      expect(graph.sent[0]!.body).to.deep.include({ type: 'template' });
      expect(graph.sent[0]!.body.template).to.deep.equal({ name: 'lembrete', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'nome', text: 'Maria' }] }] });
      const m = await api.deps.knex('messages').where({ id: (await row(saved.id)).lastMessageId }).first();
      expect(m).to.include({ text: 'Oi Maria! Seu horário está confirmado.', deliveryState: 'sent' });
    });

    it('without a template, a window that closed before the due time fails the schedule with the reason and sends nothing', async () => {
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const { conversationId, customerMessageId } = await cloudConversation(owner, 20 * HOUR);
      const { saved, handle } = await schedule({ in: 2 * HOUR, realClock: true, text: 'Oi' }, conversationId, owner);
      // The customer did not write again: by the send the window has closed.
      await api.deps.knex('messages').where({ id: customerMessageId }).update({ createdAt: new Date(Date.now() - 30 * HOUR) });
      const w = await worker();
      expect(await w.runUntil(handle.result())).to.equal('failed');
      expect(await row(saved.id)).to.include({ state: 'failed', error: OCCURRENCE_FAILURES.windowClosed, sentCount: 0 });
      expect(graph.sent).to.have.length(0);
      expect(await api.deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'operator' })).to.have.length(0);
    });
  });
});
