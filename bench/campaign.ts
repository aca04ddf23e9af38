/**
 * Scenario "campaign" (issue 15): a campaign's numbers sent to a fake WhatsApp Cloud API on loopback that
 * enforces Meta's default throughput (BENCH_CAMPAIGN_RATE, 80 messages/s; above it the fake answers 130429
 * like Meta). Two cases on the time-skipping test server with a worker in this process:
 * - throughput: BENCH_CAMPAIGN_NUMBERS (10 000 × BENCH_SCALE) numbers with zero waits → sends/s from the first
 *   accepted send to the last, as a share of the fake's rate (target ≥ 95 %), 0 duplicates;
 * - pacing: 200 numbers in batches of 50 with 1–5 s between messages and 600 s between batches → every gap
 *   between two sends **as the fake received them** (stamped with the time-skipping server's clock on
 *   arrival, before the fake answers, so the clock cannot move during the stamp) within ±5 % of its window,
 *   and the fake's span from the first send to the last within ±5 % of the sum of the waits the workflow
 *   took. The waits the workflow asked for are drawn inside the window by construction: checking them
 *   could not fail (issue 31), checking the arrivals can.
 */
import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { loadConfig } from '../api/config';
import { createLogger } from '../api/logger';
import { bindModels } from '../api/db/knex';
import { workflowIds } from '../workflows/ids';
import { campaignRun, campaignRunStateQuery } from '../workflows';
import { timeSkippingEnvironment } from '../test/helpers/temporal';
import { GRAPH_ERRORS, MetaGraphFake } from '../test/fakes/metaGraph';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, phones } from '../test/campaigns/helpers';
import { check, informative, percentile, type ScenarioContext, type ScenarioResult } from './lib/scenario';

/** The pacing case: numbers, sent in batches of PACED_CHUNK. */
const PACED_NUMBERS = 200;
const PACED_CHUNK = 50;

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Meta's throughput as a fake: at most `rate` accepted sends in any second; more answer 130429. */
class RateLimitedGraph extends MetaGraphFake {
  private window: number[] = [];
  refused = 0;
  /** performance.now() of every accepted send. */
  readonly acceptedAt: number[] = [];
  /**
   * While set, every accepted send is also stamped with this clock (the time-skipping server's) on arrival,
   * before the answer: the pacing case's gaps as the fake saw them.
   */
  clock: (() => Promise<number>) | undefined;
  readonly arrivedAt: number[] = [];
  constructor(readonly rate: number) {
    super();
  }
  protected override async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    if (req.method === 'POST' && req.url?.endsWith('/messages')) {
      const now = performance.now();
      this.window = this.window.filter((t) => now - t < 1000);
      if (this.window.length >= this.rate) {
        this.refused++;
        res.writeHead(GRAPH_ERRORS.rateLimit.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(GRAPH_ERRORS.rateLimit.body));
        return;
      }
      this.window.push(now);
      this.acceptedAt.push(now);
      if (this.clock) this.arrivedAt.push(await this.clock());
    }
    return super.handle(req, res, raw);
  }
}

export async function campaign(ctx: ScenarioContext): Promise<ScenarioResult> {
  const rate = Number(process.env.BENCH_CAMPAIGN_RATE ?? 80);
  const count = Number(process.env.BENCH_CAMPAIGN_NUMBERS ?? Math.round(10_000 * (ctx.scale ?? 1)));
  bindModels(ctx.knex);
  const graph = new RateLimitedGraph(rate);
  const url = await graph.start();
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-bench-campaign-')), JWT_SECRET: 'bench-campaign'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'x', META_GRAPH_URL: url });
  const env = await timeSkippingEnvironment();
  const publisher = { publish: async () => true, close: async () => undefined };
  const taskQueue = `bench-campaign-${process.pid}`;
  try {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
      activities: createActivities({ knex: ctx.knex, publisher, logger: createLogger('silent'), config }, { campaigns: { send: { cloudRatePerSecond: rate } } }),
    });
    const ws = await makeCampaignWorkspace(ctx.knex);
    const line = await makeCloudLine(ctx.knex, config, ws.id);
    graph.allowToken(line.token);

    return await worker.runUntil(async () => {
      // Throughput: zero waits, one batch.
      const fast = await insertCampaign(ctx.knex, { workspaceId: ws.id, channelId: line.id, status: 'waiting_processing', template: null, chunks: 100_000 });
      await insertPendingNumbers(ctx.knex, ws.id, fast, phones(count));
      const t0 = performance.now();
      const status = await env.client.workflow.execute(campaignRun, { taskQueue, workflowId: workflowIds.campaign(fast), args: [{ campaignId: fast }] });
      const seconds = (performance.now() - t0) / 1000;
      const to = graph.sent.map((s) => s.body.to as string);
      const duplicates = to.length - new Set(to).size;
      // The sending rate, first accepted send to last (the run's start-up — file step, plan — is reported apart).
      const span = (graph.acceptedAt.at(-1)! - graph.acceptedAt[0]) / 1000;
      const sendsPerSecond = (graph.acceptedAt.length - 1) / span;
      // Where the time between sends went: the gaps between accepted sends, and the stalls (gaps longer than
      // twice the line's slot: a burst's start-up, a retry, a slow statement), which the sender makes up
      // within the line's one-second window when it can.
      const gaps = graph.acceptedAt.slice(1).map((t, i) => t - graph.acceptedAt[i]).sort((a, b) => a - b);
      const slotMs = 1000 / rate;
      const longGaps = gaps.filter((g) => g > 2 * slotMs);
      const inLongGaps = longGaps.reduce((s, g) => s + g, 0) / 1000;

      // Pacing: the gaps between sends as the fake received them, on the server's clock, against the window.
      graph.clock = () => env.currentTimeMs();
      const paced = await insertCampaign(ctx.knex, {
        workspaceId: ws.id,
        channelId: line.id,
        status: 'waiting_processing',
        template: null,
        chunks: PACED_CHUNK,
        timeBetweenChunks: 600,
        initialTimeBetweenMessages: 1,
        finalTimeBetweenMessages: 5,
      });
      await insertPendingNumbers(ctx.knex, ws.id, paced, phones(PACED_NUMBERS, 1_000_000));
      const handle = await env.client.workflow.start(campaignRun, { taskQueue, workflowId: workflowIds.campaign(paced), args: [{ campaignId: paced }] });
      await handle.result();
      graph.clock = undefined;
      const arrivals = graph.arrivedAt;
      // Gap i is between send i and send i + 1; after every 50th send comes the batch wait.
      const arrivalGaps = arrivals.slice(1).map((t, i) => ({ ms: t - arrivals[i], batch: (i + 1) % PACED_CHUNK === 0 }));
      const outside = arrivalGaps.filter(({ ms, batch }) => (batch ? Math.abs(ms - 600_000) > 30_000 : ms < 950 || ms > 5250)).length;
      const { waits } = await handle.query(campaignRunStateQuery);
      const planned = waits.reduce((s, [, ms]) => s + ms, 0);
      // The clock the fake saw pass from the first send to the last, against the waits the workflow took.
      const skipped = arrivals.length > 1 ? arrivals.at(-1)! - arrivals[0] : 0;
      const drift = planned > 0 ? Math.abs(skipped - planned) / planned : 1;
      // Each gap against the wait the workflow took before that send (same order while nothing was retried).
      const aligned = waits.length === arrivalGaps.length;
      const beyondWait = aligned ? Math.max(...arrivalGaps.map(({ ms }, i) => Math.abs(ms - waits[i][1]))) : NaN;
      const messageGaps = arrivalGaps.filter((g) => !g.batch).map((g) => g.ms).sort((a, b) => a - b);

      const ratio = sendsPerSecond / rate;
      return {
        scenario: 'campaign',
        target: `sends/s ≥ 95% of the fake's ${rate}/s`,
        ratio,
        met: ratio >= 0.95 && duplicates === 0,
        rows: [],
        checks: [
          check(`sends/s of ${count} numbers ≥ 95% of ${rate}/s`, Math.round(ratio * 1000) / 10, '%', ratio >= 0.95),
          check('numbers sent twice', duplicates, '', duplicates === 0),
          check('sends received by the fake (pacing)', arrivals.length, `of ${PACED_NUMBERS}`, arrivals.length === PACED_NUMBERS),
          check('gaps between sends as received outside their window ±5%', outside, `of ${arrivalGaps.length}`, outside === 0 && arrivalGaps.length === PACED_NUMBERS - 1),
          check("fake's clock, first send to last, vs sum of waits", Math.round(drift * 10_000) / 100, '% off (≤ 5)', drift <= 0.05),
          informative('gap between paced sends as received, min', messageGaps[0] ?? NaN, 'ms'),
          informative('gap between paced sends as received, max', messageGaps.at(-1) ?? NaN, 'ms'),
          informative('largest gap − the wait the workflow took', beyondWait, 'ms'),
          informative('sends/s', Math.round(sendsPerSecond * 10) / 10, '/s'),
          informative('refused by the fake (130429)', graph.refused, ''),
          informative('gap between sends p50', Math.round(percentile(gaps, 50) * 10) / 10, 'ms'),
          informative('gap between sends p99', Math.round(percentile(gaps, 99) * 10) / 10, 'ms'),
          informative(`gaps > 2 slots (${(2 * slotMs).toFixed(1)} ms)`, longGaps.length, `(${inLongGaps.toFixed(1)} s in all)`),
        ],
        notes: [`throughput run ended ${status} in ${seconds.toFixed(1)} s (first to last send ${span.toFixed(1)} s)`],
        details: { count, rate, seconds, sendsPerSecond, duplicates, waits: waits.length, planned, skipped, arrivalGaps: arrivalGaps.map((g) => g.ms) },
      };
    });
  } finally {
    await env.teardown();
    await graph.stop();
  }
}
