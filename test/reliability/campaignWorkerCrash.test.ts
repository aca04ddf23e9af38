import type http from 'node:http';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { unique } from '../helpers/factories';
import { MetaGraphFake } from '../fakes/metaGraph';
import { DEFAULT_CAMPAIGN_SEND_OPTIONS, INTERRUPTED_REASON } from '../../activities/campaigns/sendCampaignNumbers';
import { startCampaignWorkflow } from '../../api/campaigns/runGateway';
import { ChildWorker, workerForTestApi } from './support/childWorker';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, phones, until } from '../campaigns/helpers';

/** Meta's Graph API answering each send after `delayMs`, so a burst is long enough to be killed in the middle. */
class SlowGraph extends MetaGraphFake {
  delayMs = 25;
  protected override async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    await new Promise((r) => setTimeout(r, this.delayMs));
    return super.handle(req, res, raw);
  }
}

describe('reliability: campaign worker killed (-9) in the middle of a batch', function () {
  this.timeout(300_000);
  let api: TestApi;
  let graph: SlowGraph;
  let worker: ChildWorker;

  before(async () => {
    graph = new SlowGraph();
    await graph.start();
    api = await startTestApi({ temporalTaskQueue: unique('campaign-crash'), metaGraphUrl: graph.url });
    worker = workerForTestApi(api, 'balcao-campaign-worker-', {
      META_GRAPH_URL: graph.url,
      // The worker opens the line's sealed token with the same key the test sealed it with.
      CHANNEL_SECRETS_KEY: api.config.channelSecretsKey,
    });
  });
  after(async () => {
    await worker?.kill();
    await api?.close();
    await graph?.stop();
  });

  it('resumes on a new worker with 0 numbers sent twice and 0 skipped', async () => {
    const knex = api.deps.knex;
    const ws = await makeCampaignWorkspace(knex);
    const line = await makeCloudLine(knex, api.config, ws.id);
    graph.allowToken(line.token);
    const list = phones(120, 50_000);
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'waiting_processing', chunks: 1000, template: null });
    await insertPendingNumbers(knex, ws.id, id, list);
    const sent = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId).map((s) => s.body.to as string);

    await worker.start();
    await startCampaignWorkflow(api.deps, id);
    // Killed twice, each time in the middle of a burst of back-to-back sends.
    await until(() => sent().length >= 20, 'sends before the first crash', 60_000).catch(async (err: Error) => {
      const c = await knex('campaigns').where({ id }).first('status', 'pause_reason');
      throw new Error(`${err.message} (campaign ${JSON.stringify(c)}; worker output:\n${worker.output.slice(-3000)})`);
    });
    await worker.kill();
    const atFirstKill = sent().length;
    expect(atFirstKill).to.be.below(list.length);
    await worker.start();
    await until(() => sent().length >= atFirstKill + 30, 'sends after the restart', 60_000);
    await worker.kill();
    await worker.start();
    await until(async () => (await knex('campaigns').where({ id }).first('status')).status === 'finished_success', 'campaign finished', 120_000);

    const counts = new Map<string, number>();
    for (const to of sent()) counts.set(to, (counts.get(to) ?? 0) + 1);
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    expect(duplicates, 'numbers sent twice').to.equal(0);
    const rows: { normalized: string; status: string; error: string | null }[] = await knex('campaign_numbers').where({ campaignId: id }).orderBy('id').select('normalized', 'status', 'error');
    // Skipped = neither sent nor settled with a reason. A number caught between its claim and the record of
    // Meta's answer is failed as interrupted (never re-sent): the calls on their way at the kill (several at
    // once on a Cloud line, cloudConcurrency), which Meta did get, and at most one number per kill claimed
    // and waiting for its slot, which never left.
    const interrupted = rows.filter((r) => r.status === 'failed' && r.error === INTERRUPTED_REASON);
    const skipped = rows.filter((r) => r.status !== 'sent' && !interrupted.includes(r));
    expect(skipped, 'numbers skipped').to.deep.equal([]);
    const neverLeft = interrupted.filter((r) => !counts.has(r.normalized));
    expect(neverLeft.length, 'interrupted numbers that never reached Meta').to.be.at.most(2);
    expect(interrupted.length).to.be.at.most(2 * (DEFAULT_CAMPAIGN_SEND_OPTIONS.cloudConcurrency + 1));
    for (const r of rows.filter((x) => x.status === 'sent')) expect(counts.get(r.normalized), r.normalized).to.equal(1);
    const c = await knex('campaigns').where({ id }).first();
    expect(c.totalNumbersExecuted).to.equal(list.length);
  });
});
