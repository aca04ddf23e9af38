/**
 * Scenario 5, broker: the api's embedded aedes (WebSocket /mqtt, with its CONNECT/ACL checks) against a
 * Mosquitto the bench starts (TCP, Nagle off) with the same mqtt.js harness, its WebSocket clients sending
 * as the browser transport does: 1→1 at QoS 0 and 1 with 16 B and
 * 1 KB payloads (a window of messages in flight, each timed from publish to receipt), then one publisher
 * to 1,000 subscribers at QoS 1 (every delivery timed). Targets: aedes QoS 1 ≥ 50% of Mosquitto's
 * messages/s; fan-out p99 ≤ 10 ms. The same cases then run on the scale-out path's broker (issue 32,
 * docs/scaling.md): a RabbitMQ node of its own (scripts/lib/cluster.ts) with one api node answering its
 * CONNECT/ACL hooks, reached over MQTT on WebSocket as browsers reach it; the same targets, against the
 * same Mosquitto figures. BENCH_BROKER_RABBIT=0 leaves it out (it needs Debian's rabbitmq-server and
 * haproxy, and starts a Temporal dev server for the api node).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { MqttClient, type IClientOptions } from 'mqtt';
import type { Cluster } from '../scripts/lib/cluster';
import { freePort } from '../scripts/lib/processes';
import { webSocketStreamBuilder } from '../api/realtime/wsFrames';
import { stopTestTemporal, testTemporalAddress } from '../test/helpers/temporal';
import { table } from './lib/load';
import { unpinSelf } from './lib/pin';
import { INTERNAL_PASSWORD, cpuTimeMs, withServer } from './lib/server';
import { benchTopologyPorts, startBenchTopology } from './lib/topology';
import { seedTeam } from './lib/seedTeam';
import { check, informative, sleep, summarize, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

/** An external Mosquitto to compare with; unset, the bench starts its own (below). */
const MOSQUITTO_URL = process.env.BENCH_MOSQUITTO_URL;
const WINDOW = 32;
const FANOUT_SUBSCRIBERS = Number(process.env.BENCH_FANOUT_SUBSCRIBERS ?? 1000);
const FANOUT_RATE = 10;
const WITH_RABBIT = process.env.BENCH_BROKER_RABBIT !== '0';

interface Target {
  name: string;
  url: string;
  /** Credentials of a publisher / 1→1 subscriber. */
  internal: IClientOptions;
  topic: string;
  /** Credentials of fan-out subscriber i, and the topic they all share. */
  subscriber(i: number): IClientOptions;
  fanoutTopic: string;
  /** The broker's process, for its CPU per message (undefined: not measured). */
  pid?: number;
}

/**
 * What a 1→1 case cost: the broker's CPU per message received by the subscriber (µs) and the load
 * generator's (this process: the publisher and the subscriber), as a share of its core. A generator near 100%
 * sets the pace, not the broker: then the broker's CPU per message is the figure that compares brokers.
 */
interface CaseCost {
  name: string;
  brokerUsPerMessage: number;
  generatorShare: number;
}
const costs: CaseCost[] = [];

const fanoutCosts: { name: string; brokerUsPerDelivery: number }[] = [];

/** Before each fan-out window: the app's own events the subscribers got, and how long they took to stop. */
const fanoutSettles: { name: string; appEvents: number; settleMs: number; appEventsInWindow?: number }[] = [];

/**
 * Mosquitto at its best for this harness: a process of the bench's own, Nagle off (`set_tcp_nodelay`: by
 * default Mosquitto, like the machine's on 1883, lets the kernel hold small writes back for the peer's
 * delayed ACK; a 1 KB QoS 0 window then crawled at ~380 msg/s with p50 88 ms), no persistence file, no
 * queue or in-flight cap below the bench's window. BENCH_MOSQUITTO_URL compares with another one instead.
 */
async function startMosquitto(serverCore: number | undefined): Promise<{ url: string; pid?: number; stop(): Promise<void> }> {
  if (MOSQUITTO_URL) return { url: MOSQUITTO_URL, stop: async () => undefined };
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'set_tcp_nodelay true', 'persistence false', 'max_inflight_messages 0', 'max_queued_messages 0', 'log_type error', ''].join('\n'));
  // On the core the api child gets, as the api's aedes does.
  const child = serverCore === undefined ? spawn('mosquitto', ['-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] }) : spawn('taskset', ['-c', String(serverCore), 'mosquitto', '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const probe = createConnection({ port, host: '127.0.0.1' }, () => resolve(true)).once('error', () => resolve(false));
      probe.once('connect', () => probe.destroy());
    });
    if (open) break;
    if (i > 100 || child.exitCode !== null) throw new Error('mosquitto did not start (is Debian\'s mosquitto installed? BENCH_MOSQUITTO_URL names another)');
    await sleep(50);
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** MQTT over TCP with Nagle off on this side too (mqtt.js' own TCP transport leaves it on). */
function tcpStream(url: string): () => Duplex {
  const { hostname, port } = new URL(url);
  return () => createConnection({ host: hostname, port: Number(port || 1883), noDelay: true });
}

/**
 * The product's clients over WebSocket are browsers, whose mqtt.js transport sends a flush as one frame; its
 * Node transport would send every piece of a packet as a frame (a PUBLISH is 5–6), for the broker to parse and
 * this process to write. webSocketStreamBuilder sends as browsers do (and as the api's worker does).
 */
function connect(url: string, options: IClientOptions): Promise<MqttClient> {
  const opts: IClientOptions = { clean: true, reconnectPeriod: 0, connectTimeout: 20_000, protocolVersion: 4, clientId: `bench-${randomBytes(6).toString('hex')}`, ...options };
  const client = url.startsWith('ws') ? new MqttClient(webSocketStreamBuilder(url), opts) : new MqttClient(tcpStream(url), opts);
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', reject);
    client.once('close', () => reject(new Error(`${url}: closed before CONNACK`)));
  });
}

/** A window of WINDOW messages in flight: each receipt sends the next, so the broker sets the pace. */
async function oneToOne(target: Target, qos: 0 | 1, size: number, seconds: number): Promise<Row> {
  const sub = await connect(target.url, target.internal);
  const pub = await connect(target.url, target.internal);
  const topic = `${target.topic}-${qos}-${size}`;
  await sub.subscribeAsync(topic, { qos });
  const sentAt = new Map<number, bigint>();
  const latencies: number[] = [];
  let seq = 0;
  let inflight = 0;
  let stopped = false;
  let recordFrom = Infinity;
  let received = 0;
  const send = () => {
    const s = seq++;
    const payload = Buffer.alloc(size, 0x61);
    payload.writeUInt32BE(s, 0);
    sentAt.set(s, process.hrtime.bigint());
    inflight++;
    pub.publish(topic, payload, { qos });
  };
  const pump = () => {
    while (!stopped && inflight < WINDOW) send();
  };
  sub.on('message', (_t, payload) => {
    const s = payload.readUInt32BE(0);
    const t0 = sentAt.get(s);
    inflight--;
    if (t0 !== undefined) {
      sentAt.delete(s);
      received++;
      if (s >= recordFrom && !stopped) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    pump();
  });
  pump();
  await sleep(1000);
  recordFrom = seq;
  const started = Date.now();
  const receivedBefore = received;
  const brokerBefore = target.pid ? cpuTimeMs(target.pid) : NaN;
  const generatorBefore = process.cpuUsage();
  await sleep(seconds * 1000);
  const generatorMs = (() => {
    const u = process.cpuUsage(generatorBefore);
    return (u.user + u.system) / 1000;
  })();
  const brokerMs = target.pid ? cpuTimeMs(target.pid) - brokerBefore : NaN;
  const receivedInWindow = received - receivedBefore;
  stopped = true;
  const measured = (Date.now() - started) / 1000;
  await sleep(1000);
  const lost = seq - received;
  await Promise.all([sub.endAsync(true), pub.endAsync(true)]);
  const name = `${target.name} qos${qos} ${size === 16 ? '16 B' : '1 KB'}`;
  costs.push({ name, brokerUsPerMessage: (brokerMs * 1000) / Math.max(1, receivedInWindow), generatorShare: generatorMs / (measured * 1000) });
  return { name, ...summarize(latencies, measured, lost) };
}

/** FANOUT_SUBSCRIBERS clients on one topic; FANOUT_RATE messages/s; every delivery timed. */
async function fanout(target: Target, seconds: number): Promise<Row> {
  const subs: MqttClient[] = [];
  const latencies: number[] = [];
  let recording = false;
  let delivered = 0;
  /** The app's own events on the topic: 1,000 operators coming online each announce it to all (presence). */
  let appEvents = 0;
  let appEventsInWindow = 0;
  for (let i = 0; i < FANOUT_SUBSCRIBERS; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, FANOUT_SUBSCRIBERS - i) }, (_, j) => connect(target.url, target.subscriber(i + j))));
    await Promise.all(batch.map((c) => c.subscribeAsync(target.fanoutTopic, { qos: 1 })));
    subs.push(...batch);
  }
  for (const c of subs) {
    c.on('message', (_t, payload) => {
      const sent = JSON.parse(payload.toString()) as { at?: unknown };
      // The app's own events on the same topic (presence, the team chat's room list) carry no bench clock.
      if (typeof sent.at !== 'string' || !/^\d+$/.test(sent.at)) {
        appEvents++;
        if (recording) appEventsInWindow++;
        return;
      }
      delivered++;
      if (!recording) return;
      latencies.push(Number(process.hrtime.bigint() - BigInt(sent.at)) / 1e6);
    });
  }
  // Those announcements are up to N² deliveries (half a million for 1,000 agents), still arriving long after
  // the last CONNECT: measured inside that storm, the fan-out read the storm. The window opens once no app
  // event came for 2 s (bounded), and the bench prints how many came and how many still fell in the window.
  const settleStarted = Date.now();
  for (let last = -1; appEvents !== last && Date.now() - settleStarted < 180_000; ) {
    last = appEvents;
    await sleep(2000);
  }
  fanoutSettles.push({ name: target.name, appEvents, settleMs: Date.now() - settleStarted });
  const pub = await connect(target.url, target.internal);
  const body = { event: 'chat.newMessage', data: { conversation: { id: 1, name: 'Visitante', lastMessage: { text: 'Olá, tudo bem?' } } } };
  const publishFor = async (ms: number) => {
    const until = Date.now() + ms;
    let sent = 0;
    while (Date.now() < until) {
      pub.publish(target.fanoutTopic, JSON.stringify({ ...body, at: String(process.hrtime.bigint()) }), { qos: 1 });
      sent++;
      await sleep(1000 / FANOUT_RATE);
    }
    return sent;
  };
  await publishFor(1000);
  await sleep(500);
  recording = true;
  delivered = 0;
  const started = Date.now();
  const brokerBefore = target.pid ? cpuTimeMs(target.pid) : NaN;
  const deliveredBefore = delivered;
  const sent = await publishFor(seconds * 1000);
  const measured = (Date.now() - started) / 1000;
  // The broker's CPU per delivery: one burst is FANOUT_SUBSCRIBERS of them, one after another on its core.
  fanoutCosts.push({ name: target.name, brokerUsPerDelivery: target.pid ? ((cpuTimeMs(target.pid) - brokerBefore) * 1000) / Math.max(1, delivered - deliveredBefore) : NaN });
  // Late is not lost: wait (bounded) until every delivery arrived or none arrives any more.
  const expected = sent * subs.length;
  for (let last = -1, waited = 0; delivered < expected && waited < 20_000 && delivered !== last; waited += 1000) {
    last = delivered;
    await sleep(1000);
  }
  recording = false;
  const lost = expected - delivered;
  fanoutSettles[fanoutSettles.length - 1].appEventsInWindow = appEventsInWindow;
  await Promise.all([pub, ...subs].map((c) => c.endAsync(true).catch(() => undefined)));
  return { name: `${target.name} 1→${subs.length} fan-out qos1`, ...summarize(latencies, measured, Math.max(0, lost)) };
}

export async function broker(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seconds = Math.max(2, Math.round(ctx.seconds / 2));
  const team = await seedTeam(ctx.knex, 'broker', FANOUT_SUBSCRIBERS);
  const id = randomBytes(4).toString('hex');
  const ownMosquitto = await startMosquitto(ctx.serverCore);
  const mosquitto: Target = {
    name: 'mosquitto',
    url: ownMosquitto.url,
    internal: {},
    topic: `bench/${id}/one`,
    subscriber: () => ({}),
    fanoutTopic: `bench/${id}/all`,
    pid: ownMosquitto.pid,
  };
  costs.length = 0;
  fanoutSettles.length = 0;
  fanoutCosts.length = 0;
  const rows: Row[] = [];
  const runAll = async (target: Target, baseline?: (name: string) => string) => {
    for (const qos of [0, 1] as const) {
      for (const size of [16, 1024]) {
        const row = await oneToOne(target, qos, size, seconds);
        rows.push(baseline ? { ...row, baseline: baseline(row.name) } : row);
      }
    }
    const row = await fanout(target, seconds);
    rows.push(baseline ? { ...row, baseline: baseline(row.name) } : row);
  };
  try {
    await runAll(mosquitto);
  } finally {
    await ownMosquitto.stop();
  }
  await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port, pid) => {
    const aedes: Target = {
      pid,
      name: 'aedes',
      url: `ws://127.0.0.1:${port}/mqtt`,
      internal: { username: 'internal', password: INTERNAL_PASSWORD },
      topic: `ws/${team.workspaceId}/op/${team.members[0].operatorId}`,
      subscriber: (i) => ({ username: String(team.members[i].operatorId), password: team.members[i].token }),
      fanoutTopic: `ws/${team.workspaceId}/all`,
    };
    await runAll(aedes, (name) => name.replace(/^aedes/, 'mosquitto'));
  });
  if (WITH_RABBIT) await withRabbit(ctx, (rabbit) => runAll(rabbit, (name) => name.replace(/^rabbitmq/, 'mosquitto')), team);
  console.log(table(rows));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const ratioOf = (broker: string, name: string) => (byName.get(`${broker} ${name}`)?.rps ?? 0) / (byName.get(`mosquitto ${name}`)?.rps ?? Infinity);
  const qos1Of = (broker: string) => Math.min(ratioOf(broker, 'qos1 16 B'), ratioOf(broker, 'qos1 1 KB'));
  const checksOf = (broker: string, label: string) => {
    const qos1 = qos1Of(broker);
    const fan = rows.find((r) => r.name.startsWith(`${broker} 1→`));
    return [
      check(`${label} QoS 1 ≥ 50% of Mosquitto msg/s (worse payload)`, qos1 * 100, '%', qos1 >= 0.5),
      check(`${label} fan-out p99 ≤ 10 ms`, fan?.p99 ?? NaN, 'ms', (fan?.p99 ?? Infinity) <= 10),
    ];
  };
  const checks = [...checksOf('aedes', 'aedes'), ...(WITH_RABBIT ? checksOf('rabbitmq', 'RabbitMQ (the cluster broker)') : [])];
  const costOf = (name: string) => costs.find((c) => c.name === name);
  for (const size of ['16 B', '1 KB']) {
    const a = costOf(`aedes qos1 ${size}`);
    const m = costOf(`mosquitto qos1 ${size}`);
    if (!a || !m) continue;
    checks.push(
      informative(`aedes CPU per QoS 1 message, ${size} (µs; the api process, Web MQTT)`, a.brokerUsPerMessage, 'µs'),
      informative(`Mosquitto CPU per QoS 1 message, ${size} (µs; TCP)`, m.brokerUsPerMessage, 'µs'),
      informative(`Mosquitto's CPU per message ÷ aedes', QoS 1 ${size}`, (m.brokerUsPerMessage / a.brokerUsPerMessage) * 100, '%'),
      informative(`load generator's core during aedes / Mosquitto QoS 1 ${size} (near 100%: it sets the pace)`, a.generatorShare * 100, `% / ${(m.generatorShare * 100).toFixed(0)}%`),
    );
  }
  for (const f of fanoutCosts) {
    if (Number.isNaN(f.brokerUsPerDelivery)) continue;
    checks.push(
      informative(`${f.name} CPU per fan-out delivery (µs; × ${FANOUT_SUBSCRIBERS} is the time its core needs for one burst, the floor of the fan-out p99)`, f.brokerUsPerDelivery, 'µs'),
    );
  }
  for (const f of fanoutSettles) {
    checks.push(
      informative(`${f.name} fan-out: app events (presence) the subscribers got before the window`, f.appEvents, 'events'),
      informative(`${f.name} fan-out: app events inside the window (0: the storm had settled)`, f.appEventsInWindow ?? 0, 'events'),
      informative(`${f.name} fan-out: seconds until no app event came for 2 s`, f.settleMs / 1000, 's'),
    );
  }
  const qos1 = qos1Of('aedes');
  return { scenario: 'broker', target: 'aedes QoS 1 ≥ 50% of Mosquitto', ratio: qos1, met: checks.every((c) => c.met), rows, checks };
}

/**
 * The cluster's broker: a RabbitMQ node started as `npm run cluster` starts it, with one api node (no
 * workers) answering its hooks through haproxy. Browsers' path: MQTT over WebSocket on the node's Web MQTT
 * port (straight, as the aedes rows reach the api). Like Mosquitto, nothing of it is pinned.
 */
async function withRabbit(ctx: ScenarioContext, run: (target: Target) => Promise<void>, team: Awaited<ReturnType<typeof seedTeam>>): Promise<void> {
  const ownTemporal = !process.env.BENCH_TEMPORAL_ADDRESS;
  const temporalAddress = process.env.BENCH_TEMPORAL_ADDRESS ?? (await testTemporalAddress());
  const restorePin = unpinSelf();
  const ports = await benchTopologyPorts(1);
  let topology: Cluster | undefined;
  try {
    topology = await startBenchTopology(ctx, { name: 'broker', ports, workers: 0, temporalAddress });
    // The load generator back on its own core; the broker and the api node keep every core.
    restorePin();
    await run({
      name: 'rabbitmq',
      url: `ws://127.0.0.1:${ports.rabbit.ws}/mqtt`,
      internal: { username: 'internal', password: topology.internalPassword },
      topic: `ws/${team.workspaceId}/op/${team.members[0].operatorId}`,
      subscriber: (i) => ({ username: String(team.members[i].operatorId), password: team.members[i].token }),
      fanoutTopic: `ws/${team.workspaceId}/all`,
    });
  } finally {
    restorePin();
    await topology?.stop();
    if (ownTemporal) await stopTestTemporal();
  }
}
