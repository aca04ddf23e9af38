import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { topics } from '../../api/realtime/publisher';
import { DEFAULT_MENU_INVALID } from '../../api/bots/schema';
import { workflowIds } from '../../workflows/ids';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { makeGroup } from '../inbox/factories';
import { Clients, inbox, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { firstContact, makeWidget, type TestWidget } from '../widget/helpers';
import { act, botMessagesCount, eventually, guid, makeBot, openBotSession, option, path, sessionStatus } from './support';
import { reconcileBotSessions } from '../../activities/bots/reconcileSessions';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

describe('bot runtime through the API (dev server, widget, MQTT)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let connection: NativeConnection;
  let bundle: WorkflowBundleWithSourceMap;
  let worker: Worker;
  let running: Promise<void>;
  let clients: Clients;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let widget: TestWidget;
  let groupId: number;

  before(async () => {
    [api, connection, bundle] = await Promise.all([
      startTestApi({ temporalTaskQueue: unique('bot-api') }),
      testNativeConnection(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
    worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: bundle,
      activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config }),
    });
    running = worker.run();
    clients = new Clients(api.url);
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    await api.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).update({ isOnline: true });
    groupId = await makeGroup(api.deps.knex, ws, [agent.id]);
    widget = await makeWidget(api, owner);
  });
  afterEach(async () => {
    await clients.endAll();
    // Each test brings its own bots: none stays active for the next one's new calls.
    await api.deps.knex('bots').where({ workspaceId: ws.id }).update({ isActive: false });
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await api?.close();
  });

  const newMessages = (received: Received[], conversationId: number) =>
    received.filter((r) => r.envelope.event === 'chat.newMessage' && (r.envelope.data as { conversation: { id: number } }).conversation.id === conversationId);

  it('widget inbound → the bot answers with a BOT message published to the team and to the visitor; a menu reply hands off to a group', async () => {
    const sales = guid();
    const bot = await makeBot(api.deps.knex, ws, {
      name: 'Recepção',
      priority: 5,
      channels: [widget.id],
      paths: [
        path('Início', [act.message('Olá! Sou a recepção.'), act.menu({ title: 'Como posso ajudar?', text: '', options: [option('Vendas', sales)] })]),
        path('Vendas', [act.agent({ assigneeType: 'group', assignee: groupId, text: 'Chamando a equipe de vendas.' })], sales),
      ],
    });
    const team = await clients.connect(String(owner.id), owner.token);
    await subscribeCodes(team, [topics.operator(ws.id, owner.id)]);
    const teamEvents = inbox(team);

    const visitor = await firstContact(api, widget, 'Oi');
    const texts = await botMessagesCount(api.deps.knex, visitor.conversationId, 2);
    expect(texts).to.deep.equal(['Olá! Sou a recepção.', 'Como posso ajudar?\n1 - Vendas']);
    // Stored as BOT from the bot, then taken by the widget adapter (status 2, external id w-{id}).
    await eventually(async () => {
      const rows: { sender: string; status: number }[] = await api.deps.knex('messages').where({ customerPlatformId: visitor.conversationId, type: 3 }).select('sender', 'status');
      return rows.every((r) => r.sender === 'bot' && r.status === 2);
    }, 'delivered bot messages');
    const live = await waitFor(() => {
      const got = newMessages(teamEvents, visitor.conversationId).filter((r) => (r.envelope.data as { message: { type: number } }).message.type === 3);
      return got.length === 2 ? got : undefined;
    });
    expect(live.map((r) => (r.envelope.data as { message: { text: string } }).message.text)).to.deep.equal(texts);

    // While the bot runs, the call is not auto-assigned and the inbox names the bot; admins get the Web UI link.
    const view = await api.request('GET', `/api/inbox/conversations/${visitor.conversationId}`, { token: owner.token });
    expect(view.body.data).to.include({ botId: bot.id, botName: 'Recepção', operatorId: null });
    expect(view.body.data.temporalUrl).to.equal(`${api.config.temporalUiUrl}/namespaces/default/workflows/${encodeURIComponent(workflowIds.botSession(visitor.conversationId))}`);

    const phone = await clients.connect(`visitor:${visitor.id}`, visitor.token);
    await subscribeCodes(phone, [topics.widget(widget.identifier, visitor.id)]);
    const visitorEvents = inbox(phone);
    const send = (content: string) => api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content, type: 'text', identifier: widget.identifier } });
    expect((await send('quero um bolo')).status).to.equal(201);
    const invalid = await waitFor(() => visitorEvents.find((r) => r.envelope.event === 'chat.widgetNewMessage' && JSON.stringify(r.envelope.data).includes(DEFAULT_MENU_INVALID)), 20_000, "the bot's invalid-option answer on the visitor's topic");
    expect(invalid.topic).to.equal(topics.widget(widget.identifier, visitor.id));

    expect((await send('1')).status).to.equal(201);
    const session = await api.deps.knex('bot_sessions').where({ customerPlatformId: visitor.conversationId }).first('id', 'bot_version');
    await eventually(async () => (await sessionStatus(api.deps.knex, session.id)) === 'transferred', 'handoff');
    expect(session.botVersion).to.equal(bot.updatedAt.toISOString());
    const after = await api.request('GET', `/api/inbox/conversations/${visitor.conversationId}`, { token: agent.token });
    expect(after.body.data).to.include({ operatorId: agent.id, groupId, botId: null, botName: null, temporalUrl: null });
    expect(await botMessagesCount(api.deps.knex, visitor.conversationId, 4)).to.deep.equal(['Olá! Sou a recepção.', 'Como posso ajudar?\n1 - Vendas', DEFAULT_MENU_INVALID, 'Chamando a equipe de vendas.']);

    const handle = (await api.deps.temporal.client()).workflow.getHandle(workflowIds.botSession(visitor.conversationId));
    expect(await handle.result()).to.equal('transferred');
    expect((await handle.describe()).memo).to.deep.equal({ workspaceId: ws.id, botId: bot.id, botName: 'Recepção', conversationId: visitor.conversationId });
  });

  it("/calls/init-bot starts a bot from the inbox; botId null ('Atendimento manual') stops it", async () => {
    const visitor = await firstContact(api, widget, 'Bom dia');
    expect((await api.deps.knex('customer_platforms').where({ id: visitor.conversationId }).first('bot_id')).botId).to.equal(null);
    const bot = await makeBot(api.deps.knex, ws, {
      name: 'Pesquisa',
      channels: [],
      paths: [path('Início', [act.input({ text: 'Qual é o seu e-mail?', responseType: 'email', inputProp: 'email' }), act.message('Obrigado!')])],
    });
    const inactive = await makeBot(api.deps.knex, ws, { name: 'Desligado', isActive: false, paths: [] });
    const refused = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: visitor.conversationId, botId: inactive.id } });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0]).to.deep.include({ key: 'botId', descriptions: ['Este bot está inativo.'] });

    const started = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: visitor.conversationId, botId: bot.id } });
    expect(started.status).to.equal(200);
    expect(started.body.data).to.include({ botId: bot.id, botName: 'Pesquisa' });
    expect(await botMessagesCount(api.deps.knex, visitor.conversationId, 1)).to.deep.equal(['Qual é o seu e-mail?']);

    const stopped = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: visitor.conversationId, botId: null } });
    expect(stopped.status).to.equal(200);
    expect(stopped.body.data).to.include({ botId: null, botName: null });
    const handle = (await api.deps.temporal.client()).workflow.getHandle(workflowIds.botSession(visitor.conversationId));
    expect(await handle.result()).to.equal('canceled');
    expect(await api.deps.knex('bot_sessions').where({ customerPlatformId: visitor.conversationId }).pluck('status')).to.deep.equal(['canceled']);

    // The contact's next message is theirs to the team now: no bot answers it.
    await api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content: 'ana@exemplo.com', type: 'text', identifier: widget.identifier } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await botMessagesCount(api.deps.knex, visitor.conversationId, 1)).to.have.length(1);
  });

  it("an agent's reply while a bot runs ends the bot and takes the unassigned conversation, both said as system messages; a private note does neither", async () => {
    const knex = api.deps.knex;
    const bot = await makeBot(knex, ws, { name: 'Cardápio', channels: [], paths: [path('Início', [act.input({ text: 'Qual é o seu nome?', responseType: 'text', inputProp: 'name' })])] });
    const start = async (greeting: string) => {
      const visitor = await firstContact(api, widget, greeting);
      const started = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: visitor.conversationId, botId: bot.id } });
      expect(started.status).to.equal(200);
      await botMessagesCount(knex, visitor.conversationId, 1);
      return visitor;
    };
    const reply = (conversationId: number, type: number, text: string) =>
      api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: conversationId, type, content: [{ insert: text }] } });
    const systemTexts = async (id: number) => (await knex('messages').where({ customerPlatformId: id, sender: 'system' }).orderBy('id')).map((m: { text: string }) => m.text);
    const ownerName = (await knex('operators').where({ id: owner.id }).first('name')).name as string;

    const visitor = await start('Quero uma torta');
    expect((await reply(visitor.conversationId, 2, 'nota: cliente antigo')).status).to.equal(201);
    expect((await knex('customer_platforms').where({ id: visitor.conversationId }).first('bot_id')).botId).to.equal(bot.id);

    expect((await reply(visitor.conversationId, 0, 'Oi! Eu te atendo.')).status).to.equal(201);
    const handle = (await api.deps.temporal.client()).workflow.getHandle(workflowIds.botSession(visitor.conversationId));
    expect(await handle.result()).to.equal('canceled');
    const view = await api.request('GET', `/api/inbox/conversations/${visitor.conversationId}`, { token: owner.token });
    expect(view.body.data).to.include({ botId: null, botName: null, operatorId: owner.id });
    expect(await systemTexts(visitor.conversationId)).to.deep.equal([`Atendimento manual: ${ownerName} respondeu e o bot foi encerrado.`, `Conversa atribuída a ${ownerName}.`]);
    const ordered = (await knex('messages').where({ customerPlatformId: visitor.conversationId }).orderBy('id')).map((m: { sender: string }) => m.sender);
    expect(ordered.slice(-3)).to.deep.equal(['system', 'system', 'operator']);
    // The customer's next message reaches the team, not the bot.
    await api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content: 'limão', type: 'text', identifier: widget.identifier } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await botMessagesCount(knex, visitor.conversationId, 1)).to.have.length(1);
    // A second reply changes nothing more.
    expect((await reply(visitor.conversationId, 0, 'Anotado!')).status).to.equal(201);
    expect(await systemTexts(visitor.conversationId)).to.have.length(2);

    // With the workspace's setting off, the bot still ends but the conversation stays unassigned.
    const off = await api.request('PUT', '/api/workspace', { token: owner.token, body: { name: ws.name, assignOnManualReply: false } });
    expect(off.status).to.equal(200);
    expect(off.body.data).to.include({ assignOnManualReply: false });
    try {
      const second = await start('Boa tarde');
      expect((await reply(second.conversationId, 0, 'Olá!')).status).to.equal(201);
      expect((await knex('customer_platforms').where({ id: second.conversationId }).first('bot_id', 'operator_id'))).to.include({ botId: null, operatorId: null });
      expect(await systemTexts(second.conversationId)).to.deep.equal([`Atendimento manual: ${ownerName} respondeu e o bot foi encerrado.`]);
    } finally {
      await knex('workspaces').where({ id: ws.id }).update({ assignOnManualReply: true });
    }
  });

  it('a conversation the caller cannot see is a 404; an unknown bot a field error', async () => {
    const visitor = await firstContact(api, widget, 'Olá');
    const other = await makeWorkspace(api.deps.knex);
    const stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    const bot = await makeBot(api.deps.knex, ws, { name: 'Outro', paths: [] });
    expect((await api.request('POST', '/api/calls/init-bot', { token: stranger.token, body: { customerPlatformId: visitor.conversationId, botId: bot.id } })).status).to.equal(404);
    const foreignBot = await makeBot(api.deps.knex, other, { name: 'Alheio', paths: [] });
    const res = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: visitor.conversationId, botId: foreignBot.id } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'botId', descriptions: ['Bot não encontrado.'] });
  });

  it('the worker start closes active sessions whose workflow is not running (failed, bot_id cleared, auto-assignment) and keeps running ones', async () => {
    const knex = api.deps.knex;
    const orphan = await firstContact(api, widget, 'Oi');
    const live = await firstContact(api, widget, 'Oi');
    const bot = await makeBot(knex, ws, { name: 'Órfão', paths: [path('Início', [act.input({ text: 'Nome?', responseType: 'text', inputProp: 'name' })])] });
    const callOf = async (id: number) => (await knex('customer_platforms').where({ id }).first('current_call_id')).currentCallId as number;
    // A row committed by an api that died before signal-with-start: no workflow.
    const lost = await openBotSession(knex, ws, orphan.conversationId, await callOf(orphan.conversationId), bot);
    const started = await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: live.conversationId, botId: bot.id } });
    expect(started.status).to.equal(200);
    await botMessagesCount(knex, live.conversationId, 1);
    const liveSession = (await knex('bot_sessions').where({ customerPlatformId: live.conversationId, status: 'active' }).first('id')).id;
    await knex('bot_sessions').whereIn('id', [lost.sessionId, liveSession]).update({ createdAt: new Date(Date.now() - 10 * 60_000) });

    // Other files' leftovers in this database may be closed too: the rows below are what this test owns.
    expect(await reconcileBotSessions({ knex, temporal: api.deps.temporal, logger: api.deps.logger })).to.be.at.least(1);
    expect(await sessionStatus(knex, lost.sessionId)).to.equal('failed');
    expect((await knex('customer_platforms').where({ id: orphan.conversationId }).first('bot_id')).botId).to.equal(null);
    expect(await sessionStatus(knex, liveSession)).to.equal('active');
    await api.request('POST', '/api/calls/init-bot', { token: owner.token, body: { customerPlatformId: live.conversationId, botId: null } });
  });
});
