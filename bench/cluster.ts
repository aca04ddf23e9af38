/**
 * Scenario `cluster` (issue 32): widget ingest at 1,000 msg/s through the load balancer of the scale-out
 * topology (scripts/lib/cluster.ts: haproxy, a RabbitMQ node of its own, api nodes and 2 workers over the
 * bench database, Redis and Temporal), with 1 api node and then with 2 in the same run — the second node
 * stopped for the first phase and started again for the second, so only the number of api nodes differs.
 * Each phase is the ingest scenario's open-loop phase (bench/ingest.ts `runPhase`: every message timed from
 * its scheduled send until the owner's browser-like MQTT client, connected to the broker through the
 * balancer, gets its chat.newMessage; counted on both ends), warmed up the same way (the returning visitors'
 * conversations opened through the balancer just before). Around each phase the CPU time of every process
 * of the topology is read from /proc (bench/lib/processCpu.ts), and what the rest of the machine used
 * meanwhile: a phase during which other work took more than a quarter of a core flags the run as busy.
 * Targets: 2 nodes ≥ 1.7× one node's acknowledged rate, with p99 ≤ 250 ms and 0 lost. On a 2-core machine
 * the ratio is bounded by the cores, so each phase also reports the cores each process used and the
 * messages the whole topology acknowledged per CPU-second (the figure per core).
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { createVisitor } from '../api/auth/visitorSessions';
import type { Cluster } from '../scripts/lib/cluster';
import { stopTestTemporal, testTemporalAddress } from '../test/helpers/temporal';
import { openConversations, phasePlan, runPhase, settleDatabase, type Phase } from './ingest';
import { table } from './lib/load';
import { unpinSelf } from './lib/pin';
import { digest } from './lib/probe';
import { allProcesses, cpuBetween, snapshot, withDescendants, type CpuSpan, type Groups } from './lib/processCpu';
import { seedTeam } from './lib/seedTeam';
import { benchTopologyPorts, startBenchTopology } from './lib/topology';
import { check, informative, sleep, type Check, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

/** BENCH_CLUSTER_RATE (default 1,000 msg/s, the rate). */
const RATE = Number(process.env.BENCH_CLUSTER_RATE ?? 1000);
export const TARGETS = { ratio: 1.7, p99Ms: 250 };
/** Other work using more than this many cores on average during a phase flags the run (the bench's idle-core rule). */
export const BUSY_REST_CORES = 0.25;
/** The groups that make up the topology (the load generator and the rest of the machine are not in it). */
export const TOPOLOGY = ['api-1', 'api-2', 'worker-1', 'worker-2', 'PostgreSQL', 'RabbitMQ', 'haproxy', 'Redis'];

/** What one phase (1 or 2 api nodes) gave. */
export interface NodePhase {
  nodes: number;
  sent: number;
  acknowledged: number;
  /** Acknowledged per second of the send schedule. */
  acknowledgedPerS: number;
  /** Scheduled send → agent, of the acknowledged messages (ms). */
  p99: number;
  lost: number;
  cpu: CpuSpan;
  /** 1-minute load average right before the phase. */
  loadBefore: number;
}

/** Cores the topology used on average over a phase (its processes only), and its acknowledged messages per CPU-second. */
export function perCore(phase: Pick<NodePhase, 'acknowledged' | 'cpu'>): { cores: number; messagesPerCpuSecond: number } {
  const ms = phase.cpu.groups.filter((g) => TOPOLOGY.includes(g.name)).reduce((a, g) => a + g.cpuMs, 0);
  return { cores: ms / 1000 / phase.cpu.seconds, messagesPerCpuSecond: ms > 0 ? phase.acknowledged / (ms / 1000) : NaN };
}

/** Why a phase counts as measured on a busy machine, or undefined. */
export function busyReason(phase: Pick<NodePhase, 'nodes' | 'cpu'>): string | undefined {
  const rest = phase.cpu.rest.cores;
  return rest > BUSY_REST_CORES ? `other work used ${rest.toFixed(2)} cores during the ${phase.nodes}-node phase (> ${BUSY_REST_CORES})` : undefined;
}

/** The targets for the pair of phases, and the figures reported beside them. */
export function clusterChecks(one: NodePhase, two: NodePhase): Check[] {
  const ratio = two.acknowledgedPerS / one.acknowledgedPerS;
  const lost = one.lost + two.lost;
  const checks = [
    check(`2 api nodes ≥ ${TARGETS.ratio}× one node's acknowledged rate (same run)`, ratio * 100, '%', ratio >= TARGETS.ratio),
    check(`p99 ≤ ${TARGETS.p99Ms} ms with 2 api nodes`, two.p99, 'ms', two.p99 <= TARGETS.p99Ms),
    check('0 lost (acknowledged but never received), both phases', lost, 'messages', lost === 0),
  ];
  for (const p of [one, two]) {
    const label = `${p.nodes} api node${p.nodes > 1 ? 's' : ''}`;
    const { cores, messagesPerCpuSecond } = perCore(p);
    checks.push(informative(`${label}: acknowledged at ${RATE.toLocaleString('en')} msg/s offered`, p.acknowledgedPerS, 'msg/s'));
    checks.push(informative(`${label}: p99 of what was acknowledged`, p.p99, 'ms'));
    checks.push(informative(`${label}: cores the topology used`, cores, 'cores'));
    checks.push(informative(`${label}: acknowledged messages per CPU-second of the topology (the figure per core)`, messagesPerCpuSecond, 'msg/core-s'));
    checks.push(informative(`${label}: cores other work used meanwhile`, p.cpu.rest.cores, 'cores'));
  }
  return checks;
}

/** One line per phase: the cores each process used (and per acknowledged message). */
export function cpuLine(p: NodePhase): string {
  const per = (ms: number) => (p.acknowledged ? (ms / p.acknowledged).toFixed(2) : '-');
  return (
    `${p.nodes} api node${p.nodes > 1 ? 's' : ''}, CPU over ${p.cpu.seconds.toFixed(1)} s (sending and draining), cores (ms per acknowledged message): ` +
    p.cpu.groups.map((g) => `${g.name} ${g.cores.toFixed(2)} (${per(g.cpuMs)})`).join(', ') +
    `; rest of the machine ${p.cpu.rest.cores.toFixed(2)}`
  );
}

/**
 * The owner's browser-like client on the broker through the balancer. It reconnects by itself, as the UI's
 * does: right after the topology starts, haproxy may not yet count the broker up (its health check needs
 * two answers) and answers the WebSocket upgrade with a 503, which mqtt.js reports only as a close.
 */
async function connectAgent(url: string, operatorId: number, token: string, topic: string, timeoutMs = 90_000): Promise<MqttClient> {
  const agent = mqtt.connect(url, { username: String(operatorId), password: token, clientId: `bench-agent-${randomBytes(4).toString('hex')}`, clean: true, reconnectPeriod: 1000, protocolVersion: 4, connectTimeout: 10_000 });
  // A reconnect (clean session) subscribes again; what was published meanwhile counts as lost, as it would be.
  agent.on('connect', () => void agent.subscribeAsync(topic, { qos: 1 }).catch(() => undefined));
  const deadline = Date.now() + timeoutMs;
  while (!agent.connected) {
    if (Date.now() > deadline) {
      agent.end(true);
      throw new Error(`the agent did not connect to the broker at ${url} in ${timeoutMs / 1000} s`);
    }
    await sleep(200);
  }
  await agent.subscribeAsync(topic, { qos: 1 });
  return agent;
}

/** The processes of each part of the topology now (PostgreSQL: the bench database's backends and the server's own processes). */
async function groupsNow(ctx: ScenarioContext, cluster: Cluster): Promise<Groups> {
  const table = allProcesses();
  const pidOf = (name: string) => {
    const m = cluster.processes.get(name);
    return m && m.child.exitCode === null && m.child.signalCode === null && m.child.pid ? [m.child.pid] : [];
  };
  const { rows } = await ctx.knex.raw<{ rows: { pid: number }[] }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR datname IS NULL');
  const rabbit = cluster.processes.get('rabbitmq')?.child.pid;
  return {
    'api-1': pidOf('api-1'),
    'api-2': pidOf('api-2'),
    'worker-1': pidOf('worker-1'),
    'worker-2': pidOf('worker-2'),
    PostgreSQL: rows.map((r) => r.pid),
    RabbitMQ: rabbit ? withDescendants(rabbit, table) : [],
    haproxy: pidOf('haproxy'),
    Redis: table.filter((p) => p.comm === 'redis-server').map((p) => p.pid),
    'load generator': [process.pid],
  };
}

export async function cluster(ctx: ScenarioContext): Promise<ScenarioResult> {
  const ownTemporal = !process.env.BENCH_TEMPORAL_ADDRESS;
  const temporalAddress = process.env.BENCH_TEMPORAL_ADDRESS ?? (await testTemporalAddress());
  // The topology's processes inherit this process's affinity: every core for them, the pin back afterwards.
  const restorePin = unpinSelf();
  const ports = await benchTopologyPorts(2);
  let topology: Cluster | undefined;
  let agent: MqttClient | undefined;
  const phases: { nodes: number; phase: Phase; figures: NodePhase }[] = [];
  // Ctrl-C mid-run: the broker, the balancer and the Temporal dev server are not children that end with us.
  const onSignal = () => void Promise.resolve(topology?.stop()).finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    topology = await startBenchTopology(ctx, { name: 'cluster', ports, workers: 2, temporalAddress });
    const { workspaceId, members } = await seedTeam(ctx.knex, 'cluster', 1, 10);
    const owner = members[0];
    const [channel] = await ctx.knex('channels').insert({ workspaceId, platformId: 4, type: 'widget', name: 'Site', status: 'connected' }).returning(['id', 'identifier']);
    const createVisitors = async (count: number) => {
      const tokens: string[] = [];
      for (let i = 0; i < count; i += 50) tokens.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => createVisitor(ctx.knex, { workspaceId, id: channel.id })))).map((v) => v.token));
      return tokens;
    };
    agent = await connectAgent(topology.mqttWsUrl, owner.operatorId, owner.token, `ws/${workspaceId}/op/${owner.operatorId}`);
    // One node first (the second stopped, out of the balancer by its health check), then both: the second
    // phase meets the bigger tables, so the ratio leans against the two nodes, not for them.
    for (const nodes of [1, 2]) {
      if (nodes === 1) await topology.stopProcess('api-2');
      else await topology.start('api-2');
      // haproxy's health check (every second, down after 2 failures, up after 1) sees the change.
      await sleep(3000);
      const plan = phasePlan(RATE, ctx.seconds);
      const visitors = { firsts: await createVisitors(plan.firsts), returning: await createVisitors(plan.returning) };
      await openConversations(ports.lb, channel.identifier, visitors.returning);
      const settled = await settleDatabase(ctx);
      await sleep(500);
      const loadBefore = os.loadavg()[0];
      const before = snapshot(await groupsNow(ctx, topology));
      const phase = await runPhase(ctx, ports.lb, channel.identifier, visitors, agent, RATE, ctx.seconds, settled, { apiStats: false });
      const now = await groupsNow(ctx, topology);
      // Backends that opened during the phase count from zero; those of the start keep their place.
      for (const [name, pids] of Object.entries(before.groups)) now[name] = [...new Set([...pids, ...(now[name] ?? [])])];
      const cpu = cpuBetween(before, snapshot(now));
      const figures: NodePhase = { nodes, sent: phase.sent, acknowledged: phase.acknowledged, acknowledgedPerS: phase.acknowledged / phase.row.seconds, p99: phase.row.p99, lost: phase.lost, cpu, loadBefore };
      phases.push({ nodes, phase, figures });
    }
  } finally {
    await agent?.endAsync(true).catch(() => undefined);
    await topology?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    restorePin();
    if (ownTemporal) await stopTestTemporal();
  }

  const label = (nodes: number) => `${nodes} api node${nodes > 1 ? 's' : ''}`;
  const rows: Row[] = phases.flatMap(({ nodes, phase }) => [
    { ...phase.row, name: `${label(nodes)}: ${RATE} msg/s widget → agent`, baseline: nodes > 1 ? `${label(1)}: ${RATE} msg/s widget → agent` : undefined },
    { ...phase.httpRow, name: `${label(nodes)}: ${RATE} msg/s HTTP answer` },
  ]);
  console.log(table(rows));
  const [one, two] = [phases[0].figures, phases[1].figures];
  const notes: string[] = [];
  for (const { nodes, phase, figures } of phases) {
    notes.push(
      `${label(nodes)}: sent ${phase.sent}, acknowledged ${phase.acknowledged}, refused ${phase.refused}, unanswered ${phase.unanswered}, lost ${phase.lost}; ` +
        `generator lag p99 ${phase.generatorLag.p99.toFixed(1)} ms; 1-min load before ${figures.loadBefore.toFixed(2)}; before the phase: ${phase.settled}`,
    );
    notes.push(`${label(nodes)} during the phase: ${digest(phase.samples)}`);
    notes.push(cpuLine(figures));
    for (const e of phase.errors) notes.push(`${label(nodes)} error ×${e.count}: ${e.what}`);
  }
  const checks = clusterChecks(one, two);
  const busy = phases.map((p) => busyReason(p.figures)).filter(Boolean).join('; ');
  const ratio = two.acknowledgedPerS / one.acknowledgedPerS;
  return {
    scenario: 'cluster',
    target: `2 api nodes ≥ ${TARGETS.ratio}× one node's acknowledged rate`,
    ratio,
    met: checks.every((c) => c.met),
    rows,
    checks,
    notes,
    busy: busy || undefined,
    details: { rate: RATE, phases: phases.map(({ figures, phase: { row: _row, httpRow: _http, ...rest } }) => ({ ...figures, phase: rest })) },
  };
}
