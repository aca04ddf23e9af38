import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import '../../api/channels';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { loadConfig } from '../../api/config';
import { receiveInbound, type InboundDeps } from '../../api/inbound/receiveInbound';
import { DEFAULT_INPUT_INVALID, DEFAULT_MENU_INVALID, type BotInput } from '../../api/bots/schema';
import { workflowIds } from '../../workflows/ids';
import { botMessageSignal, botSession, botSessionMemo, botStartSignal, botStopSignal, type BotSessionInput } from '../../workflows';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace, unique, type TestWorkspace } from '../helpers/factories';
import { timeSkippingEnvironment } from '../helpers/temporal';
import { inboundMessage, makeChannel, makeGroup, makeLabel, type TestChannel } from '../inbox/factories';
import { RecordingPublisher } from './subscription/rows';
import { act, botMessagesCount, botTexts, eventually, guid, makeBot, makeBotConversation, openBotSession, option, path as botPath, sessionStatus } from '../bots/support';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const MINUTE = 60_000;
const historiesDir = fileURLToPath(new URL('./histories/', import.meta.url));

/**
 * `RECORD_BOT_HISTORIES=1 npx mocha test/workflows/botSession.test.ts` writes the history of these tests'
 * sessions to test/workflows/histories/ (botSessionReplay.test.ts replays them against today's code).
 */
const RECORDED: Record<string, string> = {
  'message and input: sends in order, stores name (registered), e-mail and a custom property, ends when the path runs out': 'input-and-message',
  'menu: numbered options, the invalid-option text, routing by name, goto and path jumps, tag and resolve': 'menu-goto-tag-resolve',
  'agent action to a group: the text, then the conversation goes to an online member of the group and the session ends transferred': 'agent-group-handoff',
  'fills {{code}} placeholders, maps the JSON answer into properties and goes on': 'integration-map',
  'a reply just before expiry cancels it; the next question gets its own full time': 'expiry-after-reply',
};

describe('botSession workflow (time-skipping server, real database)', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let publisher: RecordingPublisher;
  let deps: InboundDeps;

  before(async () => {
    [env, { knex }, workflowBundle] = await Promise.all([
      timeSkippingEnvironment(),
      testDatabase(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
    const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-bot-')), JWT_SECRET: 'bot-test-secret'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'x' });
    publisher = new RecordingPublisher();
    deps = { knex, logger: createLogger('silent'), publisher, config };
  });
  after(() => env?.teardown());
  let currentTitle = '';
  beforeEach(function () {
    currentTitle = this.currentTest?.title ?? '';
  });

  interface Session {
    ws: TestWorkspace;
    channel: TestChannel;
    conversationId: number;
    callId: number;
    visitor: string;
    input: BotSessionInput;
    handle: WorkflowHandleWithFirstExecutionRunId<typeof botSession>;
    /** The contact writes `text`: stored through the inbound pipeline, then signalled as the API does. */
    reply(text: string): Promise<void>;
  }

  type BotDef = Partial<BotInput> & Pick<BotInput, 'paths'>;

  /** A workspace, widget channel and conversation; the bot `build` returns (after creating what it names); its session run by a worker. */
  async function withSession(build: BotDef | ((ws: TestWorkspace) => Promise<BotDef>), fn: (s: Session) => Promise<void>, inputPatch: Partial<BotSessionInput> = {}): Promise<void> {
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const first = await makeBotConversation(deps, channel);
    const cp = await knex('customer_platforms').where({ id: first.conversationId }).first('external_id');
    const def = typeof build === 'function' ? await build(ws) : build;
    const record = await makeBot(knex, ws, { ...def, channels: [channel.id] });
    const input = { ...(await openBotSession(knex, ws, first.conversationId, first.callId, record)), ...inputPatch };
    const taskQueue = unique('bots');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities: createActivities({ knex, publisher, logger: createLogger('silent'), config: deps.config }, { bots: { allowLoopbackForTests: true, integrationTimeoutMs: 2000 } }),
    });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(botSession, { taskQueue, workflowId: workflowIds.botSession(first.conversationId), args: [input], memo: botSessionMemo(input) });
      const reply = async (text: string) => {
        const r = await receiveInbound(deps, inboundMessage(channel, { identity: { externalId: cp.externalId }, content: [{ insert: text }] }));
        await handle.signal(botMessageSignal, { messageId: r.messageId, callId: r.callId, text });
      };
      await fn({ ws, channel, conversationId: first.conversationId, callId: first.callId, visitor: cp.externalId, input, handle, reply });
      const name = RECORDED[currentTitle];
      if (process.env.RECORD_BOT_HISTORIES && name) writeFileSync(path.join(historiesDir, `${name}.json`), JSON.stringify(await handle.fetchHistory()));
    });
  }

  it('message and input: sends in order, stores name (registered), e-mail and a custom property, ends when the path runs out', async () => {
    const flow = botPath('Início', [
      act.message('Olá! Eu sou o bot.'),
      act.input({ text: 'Qual é o seu nome?', responseType: 'text', inputProp: 'name' }),
      act.input({ text: 'Seu e-mail?', responseType: 'email', inputProp: 'email' }),
      act.input({ text: 'Seu CPF?', responseType: 'cpf', inputProp: 'custom', inputPropName: 'CPF', inputPropCode: 'cpf' }),
      act.message('Obrigado!'),
    ]);
    await withSession({ paths: [flow] }, async (s) => {
      expect(await botMessagesCount(knex, s.conversationId, 2)).to.deep.equal(['Olá! Eu sou o bot.', 'Qual é o seu nome?']);
      await s.reply('Maria Souza');
      await botMessagesCount(knex, s.conversationId, 3);
      await s.reply('não é e-mail');
      expect(await botMessagesCount(knex, s.conversationId, 4)).to.deep.equal(['Olá! Eu sou o bot.', 'Qual é o seu nome?', 'Seu e-mail?', DEFAULT_INPUT_INVALID]);
      await s.reply('Maria@Exemplo.com.br');
      await botMessagesCount(knex, s.conversationId, 5);
      await s.reply('111.444.777-35');
      expect(await s.handle.result()).to.equal('finished');
      expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Olá! Eu sou o bot.', 'Qual é o seu nome?', 'Seu e-mail?', DEFAULT_INPUT_INVALID, 'Seu CPF?', 'Obrigado!']);
      const cp = await knex('customer_platforms').where({ id: s.conversationId }).first('customer_id', 'bot_id');
      expect(cp.botId).to.equal(null);
      const customer = await knex('customers').where({ id: cp.customerId }).first('name', 'email', 'name_given_at');
      expect(customer).to.include({ name: 'Maria Souza', email: 'maria@exemplo.com.br' });
      expect(customer.nameGivenAt).to.be.instanceOf(Date);
      expect(await knex('customer_properties').where({ customerId: cp.customerId }).select('code', 'label', 'value')).to.deep.equal([{ code: 'cpf', label: 'CPF', value: '11144477735' }]);
      expect(await sessionStatus(knex, s.input.sessionId)).to.equal('finished');
    });
  });

  it('bot messages are type BOT from the bot, delivered to the widget visitor and published to the team', async () => {
    await withSession({ paths: [botPath('Início', [act.message('Bem-vindo!')])] }, async (s) => {
      expect(await s.handle.result()).to.equal('finished');
      const row = await knex('messages').where({ customerPlatformId: s.conversationId, type: 3 }).first('id', 'sender', 'status', 'external_id', 'idempotency_key');
      expect(row).to.include({ sender: 'bot', status: 2, externalId: `w-${row.id}` });
      expect(row.idempotencyKey).to.equal(`${workflowIds.botSession(s.conversationId)}#${s.input.sessionId}#1`);
      const widgetEvent = publisher.events.find((e) => e.topic === `widget/${s.channel.identifier}/${s.visitor}` && (e.data as { id?: number }).id === row.id);
      expect(widgetEvent?.event).to.equal('chat.widgetNewMessage');
    });
  });

  it('menu: numbered options, the invalid-option text, routing by name, goto and path jumps, tag and resolve', async () => {
    let tagId = 0;
    await withSession(
      async (ws) => {
        tagId = await makeLabel(knex, ws);
        const [sales, support, bye] = [guid(), guid(), guid()];
        return {
          paths: [
            botPath('Início', [act.menu({ title: 'Atendimento', text: 'Escolha:', options: [option('Vendas', sales), option('Suporte Técnico', support)] })]),
            botPath('Vendas', [act.message('Vendas aqui.'), act.goto(bye)], sales),
            botPath('Suporte', [act.message('Suporte aqui.'), act.path(bye)], support),
            botPath('Tchau', [act.tag(tagId, 'Etiquetado.'), act.resolve('Até logo!')], bye),
          ],
        };
      },
      async (s) => {
        expect(await botMessagesCount(knex, s.conversationId, 1)).to.deep.equal(['Atendimento\nEscolha:\n1 - Vendas\n2 - Suporte Técnico']);
        await s.reply('7');
        expect((await botMessagesCount(knex, s.conversationId, 2))[1]).to.equal(DEFAULT_MENU_INVALID);
        await s.reply('suporte tecnico');
        expect(await s.handle.result()).to.equal('finished');
        expect((await botTexts(knex, s.conversationId)).slice(2)).to.deep.equal(['Suporte aqui.', 'Etiquetado.', 'Até logo!']);
        expect(await knex('call_labels').where({ callId: s.callId }).pluck('label_id')).to.deep.equal([tagId]);
        expect((await knex('calls').where({ id: s.callId }).first('is_finished')).isFinished).to.equal(true);
        expect(await knex('customer_platforms').where({ id: s.conversationId }).first('is_finished', 'bot_id')).to.deep.equal({ isFinished: true, botId: null });
        expect(await sessionStatus(knex, s.input.sessionId)).to.equal('finished');
      },
    );
  });

  it('menu option picked by number follows its path', async () => {
    const a = guid();
    const b = guid();
    await withSession(
      { paths: [botPath('Início', [act.menu({ title: '', text: 'Opções', options: [option('A', a), option('B', b)] })]), botPath('A', [act.message('Foi A')], a), botPath('B', [act.message('Foi B')], b)] },
      async (s) => {
        await botMessagesCount(knex, s.conversationId, 1);
        await s.reply('2');
        expect(await s.handle.result()).to.equal('finished');
        expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Opções\n1 - A\n2 - B', 'Foi B']);
      },
    );
  });

  it('agent action to a group: the text, then the conversation goes to an online member of the group and the session ends transferred', async () => {
    let groupId = 0;
    let agentId = 0;
    await withSession(
      async (ws) => {
        const agent = await makeOperator(knex, 'x'.repeat(48), ws, 3);
        agentId = agent.id;
        await knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).update({ isOnline: true });
        groupId = await makeGroup(knex, ws, [agent.id]);
        return { paths: [botPath('Início', [act.agent({ assigneeType: 'group', assignee: groupId, text: 'Vou te passar para a equipe.' })])] };
      },
      async (s) => {
        expect(await s.handle.result()).to.equal('transferred');
        expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Vou te passar para a equipe.']);
        expect(await knex('customer_platforms').where({ id: s.conversationId }).first('operator_id', 'group_id', 'bot_id')).to.deep.equal({ operatorId: agentId, groupId, botId: null });
        expect(await knex('calls').where({ id: s.callId }).first('operator_id', 'group_id')).to.deep.equal({ operatorId: agentId, groupId });
        expect(await sessionStatus(knex, s.input.sessionId)).to.equal('transferred');
        const toAgent = publisher.events.filter((e) => e.topic === `ws/${s.ws.id}/op/${agentId}` && e.event === 'chat.callStatus');
        expect(toAgent.map((e) => (e.data as { conversation: { operatorId: number } }).conversation.operatorId)).to.include(agentId);
      },
    );
  });

  it('agent action to an agent assigns that agent', async () => {
    let agentId = 0;
    await withSession(
      async (ws) => {
        agentId = (await makeOperator(knex, 'x'.repeat(48), ws, 3)).id;
        return { paths: [botPath('Início', [act.agent({ assigneeType: 'agent', assignee: agentId })])] };
      },
      async (s) => {
        expect(await s.handle.result()).to.equal('transferred');
        expect((await knex('customer_platforms').where({ id: s.conversationId }).first('operator_id')).operatorId).to.equal(agentId);
      },
    );
  });

  describe('integration', () => {
    let server: http.Server;
    let base = '';
    const seen: { url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
    before(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          seen.push({ url: req.url ?? '', body, headers: req.headers });
          if (req.url?.startsWith('/fail')) {
            res.writeHead(500).end('{}');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { status: 'aprovado', order: { id: 42 } } }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('fills {{code}} placeholders, maps the JSON answer into properties and goes on', async () => {
      await withSession(
        async () => {
          const url = `${base}/orders/{{pedido}}?q={{ pedido }}`;
          return {
            paths: [
              botPath('Início', [
                act.input({ text: 'Número do pedido?', responseType: 'number', inputProp: 'custom', inputPropName: 'Pedido', inputPropCode: 'pedido' }),
                act.integration({
                  name: 'Pedidos',
                  text: 'Consultando…',
                  script: { url, method: 'POST', headers: { 'x-pedido': '{{pedido}}' }, body: '{"pedido": "{{pedido}}"}' },
                  map: [
                    { path: 'data.status', code: 'situacao' },
                    { path: 'data.order.id', code: 'order_id' },
                  ],
                }),
                act.message('Pronto.'),
              ]),
            ],
          };
        },
        async (s) => {
          await botMessagesCount(knex, s.conversationId, 1);
          await s.reply('12345');
          expect(await s.handle.result()).to.equal('finished');
          expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Número do pedido?', 'Consultando…', 'Pronto.']);
          const call = seen.find((r) => r.url.startsWith('/orders/12345'))!;
          expect(call.url).to.equal('/orders/12345?q=12345');
          expect(JSON.parse(call.body)).to.deep.equal({ pedido: '12345' });
          expect(call.headers['x-pedido']).to.equal('12345');
          const cp = await knex('customer_platforms').where({ id: s.conversationId }).first('customer_id');
          const props = await knex('customer_properties').where({ customerId: cp.customerId }).orderBy('code').select('code', 'value');
          expect(props).to.deep.equal([
            { code: 'order_id', value: '42' },
            { code: 'pedido', value: '12345' },
            { code: 'situacao', value: 'aprovado' },
          ]);
        },
      );
    });

    it('follows the failure path on a non-2xx answer', async () => {
      const failure = guid();
      await withSession(
        async () => ({
          paths: [
            botPath('Início', [act.integration({ name: 'Falha', text: '', script: { url: `${base}/fail`, method: 'GET', headers: {} }, map: [], failurePath: failure }), act.message('Deu certo.')]),
            botPath('Falha', [act.message('Deu errado.')], failure),
          ],
        }),
        async (s) => {
          expect(await s.handle.result()).to.equal('finished');
          expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Deu errado.']);
        },
      );
    });

    it('follows the failure path when the URL is refused by the guarded client (no loopback allowed for https)', async () => {
      const failure = guid();
      await withSession(
        async () => ({
          paths: [
            botPath('Início', [act.integration({ name: 'Interna', text: '', script: { url: 'https://169.254.169.254/latest', method: 'GET', headers: {} }, map: [], failurePath: failure }), act.message('Deu certo.')]),
            botPath('Falha', [act.message('Sem conexão.')], failure),
          ],
        }),
        async (s) => {
          expect(await s.handle.result()).to.equal('finished');
          expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Sem conexão.']);
        },
      );
    });
  });

  describe('expiry', () => {
    const expiring = (minutes: number) => ({ enabled: true, hours: 0, minutes, message: 'Encerrando por falta de resposta.' });

    it('does not fire before the set time, then sends the expire message and resolves the call', async () => {
      await withSession({ expire: expiring(5), paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' })])] }, async (s) => {
        await botMessagesCount(knex, s.conversationId, 1);
        const promptAt = await env.currentTimeMs();
        await env.sleep(4 * MINUTE + 50_000);
        expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?']);
        expect(await sessionStatus(knex, s.input.sessionId)).to.equal('active');
        expect(await s.handle.result()).to.equal('expired');
        expect(await env.currentTimeMs()).to.be.at.least(promptAt + 5 * MINUTE);
        expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?', 'Encerrando por falta de resposta.']);
        expect(await sessionStatus(knex, s.input.sessionId)).to.equal('expired');
        expect((await knex('calls').where({ id: s.callId }).first('is_finished')).isFinished).to.equal(true);
        expect((await knex('customer_platforms').where({ id: s.conversationId }).first('is_finished', 'bot_id'))).to.deep.equal({ isFinished: true, botId: null });
      });
    });

    it('a reply just before expiry cancels it; the next question gets its own full time', async () => {
      await withSession(
        {
          expire: expiring(5),
          paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' }), act.input({ text: 'Seu telefone?', responseType: 'phone', inputProp: 'phone' })])],
        },
        async (s) => {
          await botMessagesCount(knex, s.conversationId, 1);
          await env.sleep(4 * MINUTE + 55_000);
          await s.reply('João');
          await botMessagesCount(knex, s.conversationId, 2);
          const secondPromptAt = await env.currentTimeMs();
          await env.sleep(4 * MINUTE);
          expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?', 'Seu telefone?']);
          expect(await sessionStatus(knex, s.input.sessionId)).to.equal('active');
          expect(await s.handle.result()).to.equal('expired');
          expect(await env.currentTimeMs()).to.be.at.least(secondPromptAt + 5 * MINUTE);
          expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?', 'Seu telefone?', 'Encerrando por falta de resposta.']);
        },
      );
    });

    it('without expiry enabled the session waits as long as it takes', async () => {
      await withSession({ paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' }), act.message('Oi!')])] }, async (s) => {
        await botMessagesCount(knex, s.conversationId, 1);
        await env.sleep(30 * 24 * 60 * MINUTE);
        expect(await sessionStatus(knex, s.input.sessionId)).to.equal('active');
        await s.reply('Ana');
        expect(await s.handle.result()).to.equal('finished');
      });
    });
  });

  it("'Atendimento manual': the stop signal ends the run, nothing more is sent", async () => {
    await withSession({ paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' }), act.message('Nunca enviada')])] }, async (s) => {
      await botMessagesCount(knex, s.conversationId, 1);
      await knex('bot_sessions').where({ id: s.input.sessionId }).update({ status: 'canceled', finishedAt: new Date() });
      await s.handle.signal(botStopSignal);
      expect(await s.handle.result()).to.equal('canceled');
      expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?']);
    });
  });

  it('a session closed in the database (call resolved by an agent) ends at its next step without sending', async () => {
    await withSession({ paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' }), act.message('Nunca enviada')])] }, async (s) => {
      await botMessagesCount(knex, s.conversationId, 1);
      await knex('calls').where({ id: s.callId }).update({ isFinished: true, finishedAt: new Date() });
      await knex('customer_platforms').where({ id: s.conversationId }).update({ isFinished: true });
      // A late answer of that call (a new message would open a new call, which the API gives a new session).
      const prompt = await knex('messages').where({ customerPlatformId: s.conversationId, type: 3 }).max('id as id').first();
      await s.handle.signal(botMessageSignal, { messageId: Number(prompt!.id) + 1, callId: s.callId, text: 'Ana' });
      expect(await s.handle.result()).to.equal('canceled');
      expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?']);
      expect(await sessionStatus(knex, s.input.sessionId)).to.equal('canceled');
    });
  });

  it('a new session signalled with botStartSignal replaces the running one (continueAsNew with the new bot)', async () => {
    await withSession({ paths: [botPath('Início', [act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' })])] }, async (s) => {
      await botMessagesCount(knex, s.conversationId, 1);
      const other = await makeBot(knex, s.ws, { name: 'Outro bot', channels: [s.channel.id], paths: [botPath('Início', [act.message('Sou o outro bot.')])] });
      const next = await openBotSession(knex, s.ws, s.conversationId, s.callId, other);
      expect(await sessionStatus(knex, s.input.sessionId)).to.equal('canceled');
      await s.handle.signal(botStartSignal, next);
      expect(await s.handle.result()).to.equal('finished');
      expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Seu nome?', 'Sou o outro bot.']);
      expect(await sessionStatus(knex, next.sessionId)).to.equal('finished');
      const description = await s.handle.describe();
      expect(description.memo).to.deep.equal({ workspaceId: s.ws.id, botId: other.id, botName: 'Outro bot', conversationId: s.conversationId });
    });
  });

  it('continues as new when the history grows, keeping its place, the waiting question and the step counter', async () => {
    const flow = botPath('Início', [
      act.input({ text: 'Idade?', responseType: 'number', inputProp: 'custom', inputPropName: 'Idade', inputPropCode: 'idade' }),
      act.message('Anotado.'),
    ]);
    await withSession({ paths: [flow] }, async (s) => {
      await botMessagesCount(knex, s.conversationId, 1);
      for (let i = 0; i < 4; i++) {
        await s.reply('não sei');
        await botMessagesCount(knex, s.conversationId, 2 + i);
      }
      // A continueAsNew racing a new signal is refused by the server and retried later: nothing is lost.
      const first = env.client.workflow.getHandle(workflowIds.botSession(s.conversationId), s.handle.firstExecutionRunId);
      await eventually(async () => (await first.describe()).status.name === 'CONTINUED_AS_NEW', 'the first run to continue as new');
      await s.reply('33');
      expect(await s.handle.result()).to.equal('finished');
      const keys = await knex('messages').where({ customerPlatformId: s.conversationId, type: 3 }).orderBy('id').pluck('idempotency_key');
      // One step per message across every run: the counter travelled through continueAsNew.
      expect(keys).to.deep.equal([1, 2, 3, 4, 5, 6].map((n) => `${workflowIds.botSession(s.conversationId)}#${s.input.sessionId}#${n}`));
      expect(await botTexts(knex, s.conversationId)).to.deep.equal(['Idade?', ...Array(4).fill(DEFAULT_INPUT_INVALID), 'Anotado.']);
      const cp = await knex('customer_platforms').where({ id: s.conversationId }).first('customer_id');
      expect(await knex('customer_properties').where({ customerId: cp.customerId }).pluck('value')).to.deep.equal(['33']);
    }, { historyLimit: 10 });
  });
});
