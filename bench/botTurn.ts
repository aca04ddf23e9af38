/**
 * Scenario "bot-turn" (issue 5): a widget visitor's message → the bot's reply on the visitor's MQTT topic,
 * one turn after another, on the Temporal dev server. The api (createApp, embedded broker) and a worker
 * run in this process; each turn is a menu answered with '1' whose option loops back to the menu, so the
 * bot's reply is the menu sent again. Baseline, measured the same way: a widget message without a bot →
 * chat.newMessage on the team's MQTT topic. Targets: p50 ≤ 50 ms, p99 ≤ 200 ms, history < 10 events per
 * turn. Widget rate limits are off here (one visitor would be capped at 30 messages a minute).
 * BENCH_TEMPORAL_ADDRESS uses a running Temporal; unset, a dev server from .tools/ is started.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadConfig } from '../api/config';
import { createLogger } from '../api/logger';
import { bindModels } from '../api/db/knex';
import { createMailer } from '../api/mail/mailer';
import { createTemporalGateway } from '../api/temporal/client';
import { createApp } from '../api/app';
import { attachBroker } from '../api/realtime/broker';
import { setOperatorOnline } from '../api/assignment/setOperatorOnline';
import { signAccessToken } from '../api/auth/tokens';
import { topics } from '../api/realtime/publisher';
import { createActivities } from '../activities';
import { workflowIds } from '../workflows/ids';
import { stopTestTemporal, testTemporalAddress } from '../test/helpers/temporal';
import { BENCH_DIR, JWT_SECRET, INTERNAL_PASSWORD } from './lib/server';
import { check, summarize, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';
import { table } from './lib/load';

export type { ScenarioContext } from './lib/scenario';

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
const WARMUP_TURNS = 20;

/** The next message on `topic` whose event is `event` (and that `match` accepts). */
function nextMessage(client: MqttClient, topic: string, event: string, match: (data: unknown) => boolean = () => true): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (t: string, payload: Buffer) => {
      if (t !== topic) return;
      const envelope = JSON.parse(payload.toString('utf8')) as { event: string; data: unknown };
      if (envelope.event !== event || !match(envelope.data)) return;
      client.off('message', onMessage);
      resolve();
    };
    client.on('message', onMessage);
  });
}

/** Sequential turns for `seconds` (after a warmup): latencies in ms. */
async function turns(seconds: number, turn: () => Promise<void>): Promise<{ latencies: number[]; errors: number }> {
  for (let i = 0; i < WARMUP_TURNS; i++) await turn();
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    try {
      await turn();
      latencies.push(performance.now() - t0);
    } catch {
      errors++;
    }
  }
  return { latencies, errors };
}

export async function botTurn(ctx: ScenarioContext): Promise<ScenarioResult> {
  const ownTemporal = !process.env.BENCH_TEMPORAL_ADDRESS;
  const temporalAddress = process.env.BENCH_TEMPORAL_ADDRESS ?? (await testTemporalAddress());
  const config = {
    ...loadConfig({ DATA_DIR: BENCH_DIR, JWT_SECRET, MQTT_INTERNAL_PASSWORD: INTERNAL_PASSWORD, LOG_LEVEL: 'silent' }),
    databaseUrl: ctx.databaseUrl,
    temporalAddress,
    temporalTaskQueue: `bench-bots-${Date.now()}`,
  };
  const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent');
  const knex = ctx.knex;
  bindModels(knex);
  const server = http.createServer();
  const broker = attachBroker(server, { config, knex, logger, onPresence: setOperatorOnline });
  const temporal = createTemporalGateway(config);
  const deps = { config, knex, logger, mailer: createMailer(config, logger), publisher: broker.publisher, temporal, rateLimiter: { hit: async () => async () => {}, take: async () => 0, wait: async () => 0, async reset() {} } };
  const handle = createApp(deps).callback();
  server.on('request', (req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config.publicUrl = base;

  try {
    Runtime.install({ logger: new DefaultLogger('WARN'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
  } catch {
    /* a runtime was installed earlier in this process */
  }
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const worker = await Worker.create({ connection, taskQueue: config.temporalTaskQueue, workflowsPath, activities: createActivities({ knex, publisher: broker.publisher, logger, config }) });
  const running = worker.run();
  const clients: MqttClient[] = [];
  const connect = async (username: string, password: string, topic: string) => {
    const client = await mqtt.connectAsync(`${base.replace('http', 'ws')}/mqtt`, { username, password, reconnectPeriod: 0, protocolVersion: 4 });
    clients.push(client);
    await client.subscribeAsync(topic, { qos: 0 });
    return client;
  };

  try {
    const stamp = Date.now();
    const [ws] = await knex('workspaces').insert({ name: 'Bench bots', customerIdentifier: `bench-bots-${stamp}` }).returning('id');
    const [op] = await knex('operators').insert({ name: 'Bench', email: `bench-bots-${stamp}@bench.dev`, verificationLevel: 2 }).returning('id');
    await knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 10 });
    const token = await signAccessToken(JWT_SECRET, { operatorId: op.id, workspaceId: ws.id, accessLevel: 10, operatorVersion: 0, memberVersion: 0 });
    const channel = async () =>
      (await knex('channels').insert({ workspaceId: ws.id, type: 'widget', platformId: 4, name: 'Bench', description: 'Bench', status: 'connected' }).returning(['id', 'identifier']))[0] as { id: number; identifier: string };
    const [withBot, withoutBot] = [await channel(), await channel()];
    const menuPath = randomUUID();
    await knex('bots').insert({
      workspaceId: ws.id,
      name: 'Bench',
      isActive: true,
      priority: 0,
      userType: 'all',
      definition: JSON.stringify({
        channels: [withBot.id],
        businessHours: [],
        expire: { enabled: true, hours: 1, minutes: 0, message: '' },
        paths: [{ guid: menuPath, name: 'Menu', actions: [{ guid: randomUUID(), type: 'menu', title: 'Bench', text: '', textInvalid: 'Opção inválida', options: [{ guid: randomUUID(), name: 'De novo', goTo: menuPath }] }] }],
        layout: {},
      }),
    });

    const post = async (identifier: string, content: string, visitorToken?: string) => {
      const res = await fetch(`${base}/api/v1/widget/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(visitorToken ? { Authorization: `Bearer ${visitorToken}` } : {}) },
        body: JSON.stringify({ content, type: 'text', identifier }),
      });
      if (res.status !== 201) throw new Error(`widget message refused: ${res.status}`);
      return ((await res.json()) as { data: { visitor: { id: string; token?: string } } }).data.visitor;
    };

    // Bot turns: the visitor answers '1' and waits for the menu again on their topic.
    const visitor = await post(withBot.identifier, 'Oi');
    const visitorTopic = topics.widget(withBot.identifier, visitor.id);
    const phone = await connect(`visitor:${visitor.id}`, visitor.token!, visitorTopic);
    const botRun = await turns(ctx.seconds, async () => {
      const reply = nextMessage(phone, visitorTopic, 'chat.widgetNewMessage');
      await post(withBot.identifier, '1', visitor.token);
      await reply;
    });

    // History per turn: events of the current run between the first signal and now, per signal.
    const conversation = await knex('customer_platforms').where({ channelId: withBot.id, externalId: visitor.id }).first('id');
    const history = await (await temporal.client()).workflow.getHandle(workflowIds.botSession(conversation.id)).fetchHistory();
    const events = history.events ?? [];
    const firstSignal = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
    const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    const eventsPerTurn = signals ? (events.length - firstSignal) / signals : NaN;

    // Baseline: the same inbound without a bot, until the team sees chat.newMessage.
    const team = await connect(String(op.id), token, topics.operator(ws.id, op.id));
    const other = await post(withoutBot.identifier, 'Oi');
    const baseRun = await turns(ctx.seconds, async () => {
      const seen = nextMessage(team, topics.operator(ws.id, op.id), 'chat.newMessage', (d) => (d as { message?: { sender?: string } }).message?.sender === 'customer');
      await post(withoutBot.identifier, 'Olá', other.token);
      await seen;
    });

    const bot = summarize(botRun.latencies, ctx.seconds, botRun.errors);
    const floor = summarize(baseRun.latencies, ctx.seconds, baseRun.errors);
    const rows: Row[] = [
      { name: 'inbound → team chat.newMessage (no bot)', ...floor },
      { name: 'inbound → bot reply on the visitor topic', baseline: 'inbound → team chat.newMessage (no bot)', ...bot },
    ];
    console.log(table(rows, 'inbound → team chat.newMessage (no bot)'));
    const checks = [
      check('bot turn p50 ≤ 50 ms', bot.p50, 'ms', bot.p50 <= 50),
      check('bot turn p95', bot.p95, 'ms', true),
      check('bot turn p99 ≤ 200 ms', bot.p99, 'ms', bot.p99 <= 200),
      check('history events per turn < 10', eventsPerTurn, 'events', eventsPerTurn < 10),
    ];
    return {
      scenario: 'bot-turn',
      target: 'p50 ≤ 50 ms, p99 ≤ 200 ms, < 10 history events per turn',
      ratio: bot.p50 / floor.p50,
      met: checks.every((c) => c.met),
      rows,
      checks,
      notes: [`${signals} turns in the current run, ${events.length} events; bot p50 is ${(bot.p50 / floor.p50).toFixed(1)}× the no-bot inbound p50`],
      details: { eventsPerTurn, signals, events: events.length },
    };
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.close();
    await broker.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (ownTemporal) await stopTestTemporal();
  }
}
