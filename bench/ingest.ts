/**
 * Scenario 4, ingest to agent: widget messages POSTed to /api/v1/widget/messages at a fixed rate (100/s,
 * then 1,000/s, open loop: each goes out at its scheduled time whatever the server does), each timed from
 * its scheduled send until the owner's mqtt.js client (subscribed to their topic on the api's broker)
 * receives its chat.newMessage. Every message is counted on both ends: acknowledged (201) and received.
 * A probe (lib/probe.ts) records what the api, PostgreSQL, the generator and the machine did meanwhile
 * (bench/README.md "Ingest"). Targets: p99 ≤ 50 ms at 100/s, ≤ 250 ms at 1,000/s, 0 lost.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { createVisitor } from '../api/auth/visitorSessions';
import { WIDGET_LIMITS } from '../api/channels/widget/limits';
import { table } from './lib/load';
import { withServer } from './lib/server';
import { seedTeam } from './lib/seedTeam';
import { digest, startProbe, timeline, type Sample } from './lib/probe';
import { check, informative, percentile, sleep, summarize, type Check, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

/**
 * Who sends what (the same at any BENCH_SECONDS, spread evenly over the phase): every tenth message is a
 * new visitor's first message, which opens a conversation (contact, conversation, call, assignment); the
 * other nine go round-robin to returning visitors whose conversation was opened before the phase, each
 * writing every RETURN_EVERY_S seconds, well under the widget's per-visitor limit (WIDGET_LIMITS).
 * Visitor tokens are created in the database beforehand (what the widget's token-less first POST does
 * besides the message), so the first-contact limits per source do not apply and the bench does not
 * need the product's limits changed.
 */
/** BENCH_INGEST_FIRST_EVERY (default 10): one message in this many is a first contact (1: all are). */
const FIRST_CONTACT_EVERY = Math.max(1, Number(process.env.BENCH_INGEST_FIRST_EVERY ?? 10));
const RETURN_EVERY_S = 3;

/** Which visitor sends message `seq` of a phase: a new one's first message, or a returning one's. */
export type Sender = { kind: 'first'; index: number } | { kind: 'returning'; index: number };

/**
 * A phase's plan: how many messages, how many new and returning visitors, and who sends each message.
 * Every FIRST_CONTACT_EVERY-th message is a new visitor's (each new visitor sends one); the others go
 * round-robin over the returning visitors, so each of them writes every RETURN_EVERY_S seconds.
 */
export function phasePlan(rate: number, seconds: number, firstEvery = FIRST_CONTACT_EVERY) {
  const total = Math.round(rate * seconds);
  const returning = Math.ceil((rate * RETURN_EVERY_S * (firstEvery - 1)) / firstEvery);
  return {
    total,
    firsts: Math.ceil(total / firstEvery),
    returning,
    sender(seq: number): Sender {
      if (seq % firstEvery === 0) return { kind: 'first', index: seq / firstEvery };
      return { kind: 'returning', index: (seq - Math.floor(seq / firstEvery) - 1) % returning };
    },
  };
}
if (60 / RETURN_EVERY_S > WIDGET_LIMITS.message.visitor.limit * (WIDGET_LIMITS.message.visitor.windowMs / 60_000)) throw new Error('returning visitors would meet the widget limit');
const RATES = (process.env.BENCH_INGEST_RATES ?? '100,1000').split(',').map(Number);
/** The issue's targets: agent p99 per rate (msg/s → ms). Other rates are measured without a target. */
const TARGET_P99_MS: Record<number, number> = { 100: 50, 1000: 250 };
/** How long after the last send an acknowledged message may still arrive before it counts as lost. */
const DRAIN_MS = 30_000;

/** Each rate's target checked against that rate's own phase; a rate without a target gets none. */
export function rateChecks(phases: { rate: number; p99: number }[]): Check[] {
  return phases.flatMap((p) => {
    const target = TARGET_P99_MS[p.rate];
    return target === undefined ? [] : [check(`p99 ≤ ${target} ms at ${p.rate.toLocaleString('en')} msg/s`, p.p99, 'ms', p.p99 <= target)];
  });
}

interface Phase {
  rate: number;
  /** Scheduled send → the agent's chat.newMessage (what a visitor's message costs, queueing included). */
  row: Row;
  /** Scheduled send → HTTP answer. */
  httpRow: Row;
  /** The same split by kind: a visitor's first message (opens a conversation) and the later ones. */
  firstContact: Row;
  returning: Row;
  /** Actual send − scheduled send: the generator itself falling behind (ms). */
  generatorLag: { p50: number; p99: number; max: number };
  /** Agent latency measured from the actual send instead of the schedule (coordinated omission), p99. */
  p99FromActualSend: number;
  sent: number;
  acknowledged: number;
  /** Answered with an error status or a socket error. */
  refused: number;
  /** No answer within the drain time after the last send. */
  unanswered: number;
  lost: number;
  /** The first distinct error answers, with how often each came. */
  errors: { what: string; count: number }[];
  samples: Sample[];
  checkpoints?: number;
  /** Per second of the schedule: messages due, and p50/p99 of those delivered (ms). */
  seconds: { sent: number; p50: number; p99: number }[];
  /**
   * Committed inbound events whose chat.newMessage never went out (the republish sweep's backlog) before
   * the phase and after its drain: an earlier overload (fan-out reads that timed out, a server stopped
   * with requests in flight) leaves them to the next server's sweep, which republishes them during this phase.
   */
  unpublished: { before: number; after: number };
}

interface Visitors {
  /** Visitors whose first message is in the phase (one message each). */
  firsts: string[];
  /** Visitors with an open conversation, writing again. */
  returning: string[];
}

/** POSTs one message per visitor, `concurrency` at a time (closed loop): opens their conversations. */
async function openConversations(port: number, identifier: string, tokens: string[], concurrency = 8): Promise<void> {
  const agentHttp = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const failures = new Map<string, number>();
  const one = (token: string) =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({ content: 'Oi', type: 'text', identifier });
      const req = http.request(
        { host: '127.0.0.1', port, path: '/api/v1/widget/messages', method: 'POST', agent: agentHttp, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            if (res.statusCode !== 201) failures.set(`${res.statusCode} ${text.slice(0, 200)}`, (failures.get(`${res.statusCode} ${text.slice(0, 200)}`) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', (err) => {
        failures.set(err.message, (failures.get(err.message) ?? 0) + 1);
        resolve();
      });
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tokens.length) await one(tokens[next++]);
    }),
  );
  agentHttp.destroy();
  if (failures.size) throw new Error(`opening the returning visitors' conversations failed: ${[...failures].map(([k, n]) => `${n}× ${k}`).join('; ')}`);
}

/** Processed inbound events not yet marked published (republishInbound.ts's due set, whatever their age). */
async function countUnpublished(ctx: ScenarioContext): Promise<number> {
  const [row] = await ctx.knex('inbound_events').whereNull('published_at').whereNotNull('processed_at').count({ n: '*' });
  return Number(row.n);
}

async function runPhase(ctx: ScenarioContext, port: number, identifier: string, visitors: Visitors, agent: MqttClient, rate: number, seconds: number): Promise<Phase> {
  const agentHttp = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(rate * seconds);
  const intervalNs = BigInt(Math.round(1e9 / rate));
  // Every message is timed from when the schedule says it should have gone out, not from when the
  // generator got round to sending it: a late generator (busy core, GC) then shows as latency instead of
  // silently sending fewer messages while the server is slow (coordinated omission).
  const scheduled: bigint[] = new Array(total);
  const actual: bigint[] = new Array(total);
  const answeredAt: bigint[] = new Array(total);
  const receivedAt: bigint[] = new Array(total);
  const status: number[] = new Array(total).fill(0);
  const errorCounts = new Map<string, number>();
  const prefix = randomBytes(3).toString('hex');
  const seqOf = new Map<string, number>();
  const onMessage = (_topic: string, payload: Buffer) => {
    const envelope = JSON.parse(payload.toString()) as { event: string; data: { message?: { text?: string } } };
    if (envelope.event !== 'chat.newMessage') return;
    const seq = seqOf.get(envelope.data.message?.text?.trim() ?? '');
    if (seq === undefined || receivedAt[seq] !== undefined) return;
    receivedAt[seq] = process.hrtime.bigint();
  };
  agent.on('message', onMessage);
  const noteError = (what: string) => errorCounts.set(what, (errorCounts.get(what) ?? 0) + 1);
  // Every FIRST_CONTACT_EVERY-th message is a new visitor's first; the others go round-robin to returning ones.
  const plan = phasePlan(rate, seconds);
  const isFirst = (seq: number) => plan.sender(seq).kind === 'first';
  const visitorOf = (seq: number) => {
    const s = plan.sender(seq);
    return s.kind === 'first' ? visitors.firsts[s.index] : visitors.returning[s.index];
  };
  const post = (seq: number) => {
    const key = `bench-${prefix}-${seq}`;
    seqOf.set(key, seq);
    const token = visitorOf(seq);
    const body = JSON.stringify({ content: key, type: 'text', identifier, clientMessageId: `${prefix}${seq}`.padEnd(8, '0') });
    actual[seq] = process.hrtime.bigint();
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/v1/widget/messages', method: 'POST', agent: agentHttp, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answeredAt[seq] = process.hrtime.bigint();
          status[seq] = res.statusCode ?? -1;
          if (res.statusCode !== 201) noteError(`${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`);
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      answeredAt[seq] ??= process.hrtime.bigint();
      status[seq] = -1;
      noteError(`socket ${err.code ?? err.message}`);
    });
    req.end(body);
  };
  const unpublishedBefore = await countUnpublished(ctx);
  const probe = await startProbe({ databaseUrl: ctx.databaseUrl, apiPort: port });
  // Open loop: each message goes out at its scheduled time whatever the server does; the generator
  // sleeps until the next one is due (1 ms timers at 1,000/s, no bursts of ten every 10 ms).
  const start = process.hrtime.bigint();
  for (let seq = 0; seq < total; seq++) {
    scheduled[seq] = start + BigInt(seq) * intervalNs;
    const aheadMs = Number(scheduled[seq] - process.hrtime.bigint()) / 1e6;
    if (aheadMs >= 1) await sleep(Math.floor(aheadMs));
    post(seq);
  }
  const measured = Number(process.hrtime.bigint() - start) / 1e9;
  // Everything acknowledged must arrive; wait for stragglers (bounded).
  const deadline = Date.now() + DRAIN_MS;
  const pending = () => status.some((s, i) => s === 0 || (s === 201 && receivedAt[i] === undefined));
  while (Date.now() < deadline && pending()) await sleep(50);
  const samples = await probe.stop();
  const unpublishedAfter = await countUnpublished(ctx);
  agent.off('message', onMessage);
  agentHttp.destroy();

  const ms = (a: bigint, b: bigint) => Number(a - b) / 1e6;
  const acknowledged = status.filter((s) => s === 201).length;
  const unanswered = status.filter((s) => s === 0).length;
  const refused = total - acknowledged - unanswered;
  const lostSeqs = status.flatMap((s, i) => (s === 201 && receivedAt[i] === undefined ? [i] : []));
  if (lostSeqs.length) console.log(`  not received: ${lostSeqs.slice(0, 10).map((i) => `bench-${prefix}-${i}`).join(', ')}`);
  const delivered = (filter: (seq: number) => boolean) => status.flatMap((s, i) => (s === 201 && receivedAt[i] !== undefined && filter(i) ? [ms(receivedAt[i], scheduled[i])] : []));
  const lags = actual.map((a, i) => ms(a, scheduled[i])).sort((a, b) => a - b);
  const fromActual = summarize(
    status.flatMap((s, i) => (s === 201 && receivedAt[i] !== undefined ? [ms(receivedAt[i], actual[i])] : [])),
    measured,
  );
  const failures = lostSeqs.length + refused + unanswered;
  const perSecond = Array.from({ length: Math.ceil(seconds) }, (_, sec) => {
    const inSec = (i: number) => Math.floor(i / rate) === sec;
    const lat = delivered(inSec).sort((a, b) => a - b);
    return { sent: lat.length, p50: percentile(lat, 50), p99: percentile(lat, 99) };
  });
  return {
    rate,
    row: { name: `${rate} msg/s widget → agent`, ...summarize(delivered(() => true), measured, failures) },
    httpRow: { name: `${rate} msg/s HTTP answer`, ...summarize(status.flatMap((s, i) => (s === 201 ? [ms(answeredAt[i], scheduled[i])] : [])), measured, refused + unanswered) },
    firstContact: { name: `${rate} msg/s first message of a visitor`, ...summarize(delivered(isFirst), measured) },
    returning: { name: `${rate} msg/s later messages`, ...summarize(delivered((i) => !isFirst(i)), measured) },
    generatorLag: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags[lags.length - 1] ?? NaN },
    p99FromActualSend: fromActual.p99,
    sent: total,
    acknowledged,
    refused,
    unanswered,
    lost: lostSeqs.length,
    errors: [...errorCounts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([what, count]) => ({ what, count })),
    samples,
    unpublished: { before: unpublishedBefore, after: unpublishedAfter },
    checkpoints: probe.checkpoints(),
    seconds: perSecond,
  };
}

export async function ingest(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { workspaceId, members } = await seedTeam(ctx.knex, 'ingest', 1, 10);
  const owner = members[0];
  const [channel] = await ctx.knex('channels').insert({ workspaceId, platformId: 4, type: 'widget', name: 'Site', status: 'connected' }).returning(['id', 'identifier', 'workspace_id']);
  const createVisitors = async (count: number) => {
    const tokens: string[] = [];
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => createVisitor(ctx.knex, { workspaceId, id: channel.id })));
      tokens.push(...batch.map((v) => v.token));
    }
    return tokens;
  };
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
    const out: Phase[] = [];
    for (const rate of RATES) {
      const plan = phasePlan(rate, ctx.seconds);
      const visitors = { firsts: await createVisitors(plan.firsts), returning: await createVisitors(plan.returning) };
      // Opening the returning visitors' conversations (through the api, a few at a time) is also the
      // server's warm-up before each phase: JIT, the pool's connections, the broker's session.
      await openConversations(port, channel.identifier, visitors.returning);
      await sleep(500);
      out.push(await runPhase(ctx, port, channel.identifier, visitors, agent, rate, ctx.seconds));
    }
    await agent.endAsync(true);
    return out;
  });
  const rows = phases.flatMap((p) => [p.row, p.httpRow, p.firstContact, p.returning]);
  console.log(table(rows));
  const notes: string[] = [];
  for (const p of phases) {
    notes.push(
      `${p.rate} msg/s: sent ${p.sent}, acknowledged ${p.acknowledged}, refused ${p.refused}, unanswered after ${DRAIN_MS / 1000} s ${p.unanswered}, acknowledged but not received ${p.lost}; ` +
        `generator lag p99 ${p.generatorLag.p99.toFixed(1)} ms (max ${p.generatorLag.max.toFixed(0)}); agent p99 from the actual send ${p.p99FromActualSend.toFixed(1)} ms; ` +
        `unpublished inbound events (the republish sweep's backlog) ${p.unpublished.before} before the phase, ${p.unpublished.after} after its drain`,
    );
    const worst = p.seconds.reduce((w, s, i) => (s.p99 > (p.seconds[w]?.p99 ?? -1) ? i : w), 0);
    notes.push(
      `${p.rate} msg/s during the phase: ${digest(p.samples)}; ${p.checkpoints === undefined ? '' : `${p.checkpoints} checkpoint(s); `}` +
        `slowest second t=${worst}s (p99 ${p.seconds[worst]?.p99.toFixed(1)} ms), p99 by second ${p.seconds.map((s) => s.p99.toFixed(0)).join(' ')}`,
    );
    for (const e of p.errors) notes.push(`${p.rate} msg/s error ×${e.count}: ${e.what}`);
    if (process.env.BENCH_TIMELINE === '1') {
      console.log(`  ${p.rate} msg/s timeline:`);
      for (const line of timeline(p.samples, (from) => (p.seconds[from] ? ` | due ${p.seconds[from].sent} p50 ${p.seconds[from].p50.toFixed(0)} p99 ${p.seconds[from].p99.toFixed(0)} ms` : ''))) console.log(line);
    }
  }
  const lost = phases.reduce((a, p) => a + p.lost, 0);
  const delivered = phases.reduce((a, p) => a + p.acknowledged - p.lost, 0) / Math.max(1, phases.reduce((a, p) => a + p.acknowledged, 0));
  const checks: Check[] = rateChecks(phases.map((p) => ({ rate: p.rate, p99: p.row.p99 })));
  for (const p of phases) checks.push(informative(`generator lag p99 at ${p.rate.toLocaleString('en')} msg/s (late sends; latency counts from the schedule)`, p.generatorLag.p99, 'ms'));
  checks.push(
    check('0 lost (acknowledged but never received)', lost, 'messages', lost === 0),
    check('every message acknowledged', phases.reduce((a, p) => a + p.refused + p.unanswered, 0), 'not acknowledged', phases.every((p) => p.refused + p.unanswered === 0)),
  );
  return {
    scenario: 'ingest',
    target: 'acknowledged messages received by the agent',
    ratio: delivered,
    met: checks.every((c) => c.met),
    rows,
    checks,
    notes,
    details: phases.map(({ row: _row, httpRow: _http, ...p }) => p),
  };
}
