/**
 * Scenario 4, ingest to agent: widget messages POSTed to /api/v1/widget/messages at a fixed rate (100/s,
 * then 1,000/s, open loop: the next send does not wait for the last answer), each timed from the POST
 * until the owner's mqtt.js client (subscribed to their topic on the api's broker) receives its
 * chat.newMessage. Every message is counted on both ends: acknowledged (201) and received.
 * Targets: p99 ≤ 50 ms at 100/s, ≤ 250 ms at 1,000/s, 0 lost.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { createVisitor } from '../api/widget/visitors';
import { table } from './lib/load';
import { withServer } from './lib/server';
import { seedTeam } from './lib/seedTeam';
import { check, sleep, summarize, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

/**
 * Messages go round-robin over `rate` visitors, so each sends about one a second (the widget allows 30 a
 * minute per visitor) and a tenth of them open a conversation at BENCH_SECONDS=10.
 */
const visitorsFor = (rate: number, seconds: number) => Math.max(rate, Math.ceil((rate * seconds) / 25));
const RATES = (process.env.BENCH_INGEST_RATES ?? '100,1000').split(',').map(Number);
const WARMUP_SECONDS = 1;
/** How long after the last send an acknowledged message may still arrive before it counts as lost. */
const DRAIN_MS = 30_000;

interface Phase {
  rate: number;
  row: Row;
  /** POST → HTTP answer, ms. */
  httpAnswer: { p50: number; p95: number; p99: number };
  sent: number;
  acknowledged: number;
  refused: number;
  lost: number;
}

async function runPhase(port: number, identifier: string, visitors: string[], agent: MqttClient, rate: number, seconds: number): Promise<Phase> {
  const agentHttp = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const sentAt = new Map<string, bigint>();
  const acked = new Set<string>();
  const latencies: number[] = [];
  const ackLatencies: number[] = [];
  let refused = 0;
  const prefix = randomBytes(3).toString('hex');
  const onMessage = (_topic: string, payload: Buffer) => {
    const envelope = JSON.parse(payload.toString()) as { event: string; data: { message?: { text?: string } } };
    if (envelope.event !== 'chat.newMessage') return;
    const key = envelope.data.message?.text?.trim();
    if (!key) return;
    const t0 = sentAt.get(key);
    if (t0 === undefined) return;
    sentAt.delete(key);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  };
  agent.on('message', onMessage);
  const post = (seq: number) => {
    const key = `bench-${prefix}-${seq}`;
    const token = visitors[seq % visitors.length];
    const body = JSON.stringify({ content: key, type: 'text', identifier, clientMessageId: `${prefix}${seq}`.padEnd(8, '0') });
    const t0 = process.hrtime.bigint();
    sentAt.set(key, t0);
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/v1/widget/messages', method: 'POST', agent: agentHttp, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        ackLatencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.statusCode === 201) acked.add(key);
        else {
          refused++;
          sentAt.delete(key);
        }
      },
    );
    req.on('error', () => {
      refused++;
      sentAt.delete(key);
    });
    req.end(body);
  };
  // Open loop: every 10 ms, send what the rate says should have gone by now.
  const total = rate * seconds;
  const started = Date.now();
  let seq = 0;
  while (seq < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
    while (seq < due) post(seq++);
    await sleep(10);
  }
  const measured = (Date.now() - started) / 1000;
  // Everything acknowledged must arrive; wait for stragglers (bounded).
  const deadline = Date.now() + DRAIN_MS;
  const pending = () => acked.size + refused < total || [...acked].some((k) => sentAt.has(k));
  while (Date.now() < deadline && pending()) await sleep(50);
  const unanswered = total - acked.size - refused;
  agent.off('message', onMessage);
  agentHttp.destroy();
  const lostKeys = [...acked].filter((k) => sentAt.has(k));
  const lost = lostKeys.length;
  if (lost) console.log(`  not received: ${lostKeys.slice(0, 10).join(', ')}`);
  const http201 = summarize(ackLatencies, measured);
  return {
    rate,
    httpAnswer: { p50: http201.p50, p95: http201.p95, p99: http201.p99 },
    row: { name: `${rate} msg/s widget → agent`, ...summarize(latencies, measured, lost + refused + unanswered) },
    sent: total,
    acknowledged: acked.size,
    refused: refused + unanswered,
    lost,
  };
}

export async function ingest(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { workspaceId, members } = await seedTeam(ctx.knex, 'ingest', 1, 10);
  const owner = members[0];
  const [channel] = await ctx.knex('channels').insert({ workspaceId, platformId: 4, type: 'widget', name: 'Site', status: 'connected' }).returning(['id', 'identifier', 'workspace_id']);
  const warmupVisitors = visitorsFor(RATES[0], WARMUP_SECONDS);
  const needed = warmupVisitors + RATES.reduce((a, r) => a + visitorsFor(r, ctx.seconds), 0);
  const visitors: string[] = [];
  for (let i = 0; i < needed; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, needed - i) }, () => createVisitor(ctx.knex, { workspaceId, id: channel.id })));
    visitors.push(...batch.map((v) => v.token));
  }
  const phases = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const agent = mqtt.connect(`ws://127.0.0.1:${port}/mqtt`, {
      username: String(owner.operatorId),
      password: owner.token,
      clientId: `bench-agent-${randomBytes(4).toString('hex')}`,
      clean: true,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    await new Promise<void>((resolve, reject) => {
      agent.once('connect', () => resolve());
      agent.once('error', reject);
    });
    await agent.subscribeAsync(`ws/${workspaceId}/op/${owner.operatorId}`, { qos: 1 });
    // Like every scenario, measured after a 1 s warm-up (JIT, pool connections), with visitors of its own:
    // the measured phases still open their own conversations.
    await runPhase(port, channel.identifier, visitors.slice(0, warmupVisitors), agent, RATES[0], WARMUP_SECONDS);
    const out: Phase[] = [];
    let offset = warmupVisitors;
    for (const rate of RATES) {
      const slice = visitors.slice(offset, offset + visitorsFor(rate, ctx.seconds));
      offset += slice.length;
      out.push(await runPhase(port, channel.identifier, slice, agent, rate, ctx.seconds));
    }
    await agent.endAsync(true);
    return out;
  });
  const rows = phases.map((p) => p.row);
  console.log(table(rows));
  for (const p of phases) console.log(`  ${p.rate} msg/s: HTTP answer p50 ${p.httpAnswer.p50.toFixed(1)} ms, p99 ${p.httpAnswer.p99.toFixed(1)} ms; sent ${p.sent}, acknowledged ${p.acknowledged}, refused or unanswered ${p.refused}, acknowledged but not received ${p.lost}`);
  const slow = phases[0];
  const fast = phases[phases.length - 1];
  const lost = phases.reduce((a, p) => a + p.lost, 0);
  const delivered = phases.reduce((a, p) => a + p.acknowledged - p.lost, 0) / Math.max(1, phases.reduce((a, p) => a + p.acknowledged, 0));
  const checks = [
    check('p99 ≤ 50 ms at 100 msg/s', slow.row.p99, 'ms', slow.row.p99 <= 50),
    check('p99 ≤ 250 ms at 1,000 msg/s', fast.row.p99, 'ms', fast.row.p99 <= 250),
    check('0 lost (acknowledged but never received)', lost, 'messages', lost === 0),
    check('every message acknowledged', phases.reduce((a, p) => a + p.refused, 0), 'refused', phases.every((p) => p.refused === 0)),
  ];
  return {
    scenario: 'ingest',
    target: 'acknowledged messages received by the agent',
    ratio: delivered,
    met: checks.every((c) => c.met),
    rows,
    checks,
    details: phases.map(({ row: _row, ...p }) => p),
  };
}
