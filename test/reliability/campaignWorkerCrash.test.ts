import type http from 'node:http';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { unique } from '../helpers/factories';
import { MetaGraphFake } from '../fakes/metaGraph';
import { DEFAULT_CAMPAIGN_SEND_OPTIONS, INTERRUPTED_REASON } from '../../activities/campaigns/sendCampaignNumbers';
import { startCampaignWorkflow } from '../../api/campaigns/runGateway';
import { ChildWorker, workerForTestApi } from './support/childWorker';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, phones, until } from '../campaigns/helpers';

/**
 * Meta's Graph API on loopback that notes each send when its whole request has arrived (it reached Meta,
 * whatever happens to the answer), answers after `delayMs`, and can hold every answer from some point on.
 */
class GatedGraph extends MetaGraphFake {
  delayMs = 25;
  /** `to` of every send whose request arrived, in order, with when. */
  readonly arrived: { to: string; at: number }[] = [];
  /** Sends that arrived while holding (never answered to the worker that made them). */
  readonly held: string[] = [];
  private gate: Promise<void> | null = null;
  private open = () => {};

  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }

  letGo(): void {
    this.open();
    this.gate = null;
  }

  protected override async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    if (req.method === 'POST' && req.url?.endsWith('/messages')) {
      const to = String((JSON.parse(raw.toString('utf8')) as { to?: unknown }).to);
      this.arrived.push({ to, at: Date.now() });
      if (this.gate) {
        this.held.push(to);
        await this.gate;
      }
    }
    await new Promise((r) => setTimeout(r, this.delayMs));
    return super.handle(req, res, raw);
  }
}

describe('reliability: campaign worker killed (-9) in the middle of a batch', function () {
  this.timeout(300_000);
  let api: TestApi;
  let graph: GatedGraph;
  const workers: ChildWorker[] = [];
  const worker = (env: Record<string, string> = {}) => {
    const w = workerForTestApi(api, 'balcao-campaign-worker-', {
      META_GRAPH_URL: graph.url,
      // The worker opens the line's sealed token with the same key the test sealed it with.
      CHANNEL_SECRETS_KEY: api.config.channelSecretsKey,
      ...env,
    });
    workers.push(w);
    return w;
  };

  before(async () => {
    graph = new GatedGraph();
    await graph.start();
    api = await startTestApi({ temporalTaskQueue: unique('campaign-crash'), metaGraphUrl: graph.url });
  });
  after(async () => {
    graph?.letGo();
    for (const w of workers) await w.kill();
    await api?.close();
    await graph?.stop();
  });

  it("resumes on a new worker with 0 numbers sent twice and 0 skipped: a number killed while waiting for its slot is sent later, only numbers handed to Meta are reported 'pode ter sido entregue'", async () => {
    const knex = api.deps.knex;
    const ws = await makeCampaignWorkspace(knex);
    const line = await makeCloudLine(knex, api.config, ws.id);
    graph.allowToken(line.token);
    const list = phones(80, 50_000);
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'waiting_processing', chunks: 1000, template: null });
    await insertPendingNumbers(knex, ws.id, id, list);
    const arrivedTo = () => graph.arrived.map((a) => a.to);
    /** The numbers a dead worker left `sending`: handed over to Meta, or only claimed. */
    const leftSending = async () => {
      const rows: { normalized: string; handedAt: Date | null }[] = await knex('campaign_numbers').where({ campaignId: id, status: 'sending' }).select('normalized', 'handed_at');
      return { handed: rows.filter((r) => r.handedAt).map((r) => r.normalized).sort(), claimed: rows.filter((r) => !r.handedAt).map((r) => r.normalized) };
    };

    // Kill 1, on a slow line (2/s: a slot every ~0.5 s): 200 ms after a send reached Meta, that number is
    // handed over (answered, its answer not yet recorded) and the next one is claimed, waiting for its slot.
    const slow = worker({ CAMPAIGN_CLOUD_RATE_PER_SECOND: '2' });
    await slow.start();
    await startCampaignWorkflow(api.deps, id);
    await until(() => graph.arrived.length >= 3, 'sends before the first crash', 60_000).catch(async (err: Error) => {
      const c = await knex('campaigns').where({ id }).first('status', 'pause_reason');
      throw new Error(`${err.message} (campaign ${JSON.stringify(c)}; worker output:\n${slow.output.slice(-3000)})`);
    });
    for (;;) {
      const n = graph.arrived.length;
      await new Promise((r) => setTimeout(r, Math.max(0, graph.arrived[n - 1].at + 200 - Date.now())));
      if (graph.arrived.length === n) break;
    }
    await slow.kill();
    const atFirstKill = await leftSending();
    expect(atFirstKill.handed, 'handed over at the first kill: the last send that reached Meta').to.deep.equal([graph.arrived.at(-1)!.to]);
    expect(atFirstKill.claimed, 'claimed and waiting for its slot at the first kill').to.have.length(1);
    expect(arrivedTo()).not.to.include(atFirstKill.claimed[0]);

    // Kill 2, at Meta's rate: Meta stops answering, so every call the burst may have on its way
    // (cloudConcurrency) is handed over and waiting when the worker dies.
    const fast = worker();
    await fast.start();
    const sentBefore = graph.arrived.length;
    await until(() => graph.arrived.length >= sentBefore + 20, 'sends after the first restart', 60_000);
    graph.hold();
    await until(() => graph.held.length > 0 && Date.now() - graph.arrived.at(-1)!.at > 300, 'the burst waiting on Meta', 30_000);
    await fast.kill();
    graph.letGo();
    const atSecondKill = await leftSending();
    expect(graph.held).to.have.length(DEFAULT_CAMPAIGN_SEND_OPTIONS.cloudConcurrency);
    expect(atSecondKill.handed, 'handed over at the second kill: the calls held by Meta').to.deep.equal([...graph.held].sort());
    expect(atSecondKill.claimed).to.deep.equal([]);

    const last = worker();
    await last.start();
    await until(async () => (await knex('campaigns').where({ id }).first('status')).status === 'finished_success', 'campaign finished', 120_000);

    // Every number reached Meta exactly once: none twice, none skipped.
    const counts = new Map<string, number>();
    for (const to of arrivedTo()) counts.set(to, (counts.get(to) ?? 0) + 1);
    expect([...counts.entries()].filter(([, n]) => n > 1), 'numbers sent twice').to.deep.equal([]);
    expect(list.filter((to) => !counts.has(to)), 'numbers never sent').to.deep.equal([]);
    expect(counts.size).to.equal(list.length);

    // 'pode ter sido entregue' exactly for the numbers a dead worker had handed over; every other one sent.
    const rows: { normalized: string; status: string; error: string | null }[] = await knex('campaign_numbers').where({ campaignId: id }).orderBy('id').select('normalized', 'status', 'error');
    const interrupted = rows.filter((r) => r.status === 'failed').map((r) => r.normalized);
    expect(rows.filter((r) => r.status === 'failed').every((r) => r.error === INTERRUPTED_REASON)).to.equal(true);
    expect(interrupted.sort()).to.deep.equal([...atFirstKill.handed, ...atSecondKill.handed].sort());
    expect(rows.filter((r) => r.status !== 'sent' && r.status !== 'failed')).to.deep.equal([]);
    const c = await knex('campaigns').where({ id }).first();
    expect(c).to.include({ totalNumbersExecuted: list.length, totalNumbersFailed: interrupted.length });
  });
});
