/**
 * Scenario "campaign" (issue 15): a campaign's numbers sent to a fake WhatsApp Cloud API on loopback that
 * enforces Meta's default throughput (BENCH_CAMPAIGN_RATE, 80 messages/s; above it the fake answers 130429
 * like Meta). Two cases on the time-skipping test server with a worker in this process:
 * - throughput: BENCH_CAMPAIGN_NUMBERS (10 000 × BENCH_SCALE) numbers with zero waits → sends/s from the first
 *   accepted send to the last, as a share of the fake's rate (target ≥ 95 %), 0 duplicates;
 * - pacing: 200 numbers in batches of 50 with 1–5 s between messages and 600 s between batches → every wait
 *   the workflow took within ±5 % of its configured window, and the skipped clock within ±5 % of their sum.
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

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Meta's throughput as a fake: at most `rate` accepted sends in any second; more answer 130429. */
class RateLimitedGraph extends MetaGraphFake {
  private window: number[] = [];
  refused = 0;
  /** performance.now() of every accepted send. */
  readonly acceptedAt: number[] = [];
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

      // Pacing: the waits the workflow took against the configured window.
      const paced = await insertCampaign(ctx.knex, {
        workspaceId: ws.id,
        channelId: line.id,
        status: 'waiting_processing',
        template: null,
        chunks: 50,
        timeBetweenChunks: 600,
        initialTimeBetweenMessages: 1,
        finalTimeBetweenMessages: 5,
      });
      await insertPendingNumbers(ctx.knex, ws.id, paced, phones(200, 1_000_000));
      const handle = await env.client.workflow.start(campaignRun, { taskQueue, workflowId: workflowIds.campaign(paced), args: [{ campaignId: paced }] });
      await handle.result();
      // The run's own span on the server's clock: its first event to its completion.
      const events = (await handle.fetchHistory()).events!;
      const at = (e: (typeof events)[number]) => Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
      const skipped = at(events.at(-1)!) - at(events[0]);
      const { waits } = await handle.query(campaignRunStateQuery);
      const outside = waits.filter(([kind, ms]) => (kind === 'chunk' ? Math.abs(ms - 600_000) > 30_000 : ms < 950 || ms > 5250)).length;
      const planned = waits.reduce((s, [, ms]) => s + ms, 0);
      const drift = Math.abs(skipped - planned) / planned;

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
          check('waits outside their window ±5%', outside, `of ${waits.length}`, outside === 0),
          check('skipped clock vs sum of waits', Math.round(drift * 10_000) / 100, '% off (≤ 5)', drift <= 0.05),
          informative('sends/s', Math.round(sendsPerSecond * 10) / 10, '/s'),
          informative('refused by the fake (130429)', graph.refused, ''),
          informative('gap between sends p50', Math.round(percentile(gaps, 50) * 10) / 10, 'ms'),
          informative('gap between sends p99', Math.round(percentile(gaps, 99) * 10) / 10, 'ms'),
          informative(`gaps > 2 slots (${(2 * slotMs).toFixed(1)} ms)`, longGaps.length, `(${inLongGaps.toFixed(1)} s in all)`),
        ],
        notes: [`throughput run ended ${status} in ${seconds.toFixed(1)} s (first to last send ${span.toFixed(1)} s)`],
        details: { count, rate, seconds, sendsPerSecond, duplicates, waits: waits.length, planned, skipped },
      };
    });
  } finally {
    await env.teardown();
    await graph.stop();
  }
}
