import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { loadConfig, type Config } from '../../api/config';
import type { AppDeps } from '../../api/deps';
import type { Actor } from '../../api/policy/policy';
import { updateCampaign } from '../../api/campaigns/updateCampaign';
import { reconcileCampaigns } from '../../activities/campaigns/reconcileCampaigns';
import { workflowIds } from '../../workflows/ids';
import { campaignRun, campaignRunStateQuery, STEPS_PER_RUN, MAX_BURST } from '../../workflows';
import { testDatabase } from '../helpers/db';
import { unique } from '../helpers/factories';
import { timeSkippingEnvironment } from '../helpers/temporal';
import { GRAPH_ERRORS, MetaGraphFake } from '../fakes/metaGraph';
import { RecordingPublisher } from './subscription/rows';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, storeUpload, until, type CloudLineRow } from '../campaigns/helpers';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const WABA = '102290129340398';

describe('campaignRun workflow: schedule, pacing, pause/resume/cancel, exactly once (time-skipping server, real database, fake Cloud API)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let bundle: WorkflowBundleWithSourceMap;
  let config: Config;
  let graph: MetaGraphFake;

  before(async () => {
    graph = new MetaGraphFake();
    const url = await graph.start();
    [env, { knex }, bundle] = await Promise.all([timeSkippingEnvironment(), testDatabase(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-')), JWT_SECRET: 'campaign-test'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'x', META_GRAPH_URL: url });
    // Meta's template registry, where the fake keeps one (it then checks the name, language and parameter count).
    (graph as unknown as { templates?: Map<string, unknown[]> }).templates?.set(WABA, [
      { name: 'oferta', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Olá {{1}}, temos ofertas!' }] },
    ]);
  });
  after(async () => {
    await env?.teardown();
    await graph?.stop();
  });

  let taskQueue: string;
  let publisher: RecordingPublisher;
  let ws: { id: number };
  let line: CloudLineRow;
  let actor: Actor;
  beforeEach(async () => {
    taskQueue = unique('campaign');
    publisher = new RecordingPublisher();
    ws = await makeCampaignWorkspace(knex, 5);
    line = await makeCloudLine(knex, config, ws.id);
    graph.allowToken(line.token);
    actor = { operatorId: 0, workspaceId: ws.id, accessLevel: 10, kind: 'operator' };
  });

  const appDeps = () => ({ knex, publisher, logger: createLogger('silent'), config, temporal: { client: async () => env.client, taskQueue } }) as unknown as AppDeps;
  const worker = () =>
    Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities: createActivities({ knex, publisher, logger: createLogger('silent'), config }, { campaigns: { send: { cloudRatePerSecond: 1_000_000, initialRetryMs: 1000 } } }),
    });
  const start = (campaignId: number) => env.client.workflow.start(campaignRun, { taskQueue, workflowId: workflowIds.campaign(campaignId), args: [{ campaignId }] });
  const sentTo = (l = line) => graph.sent.filter((s) => s.phoneNumberId === l.phoneNumberId).map((s) => s.body.to as string);
  const campaign = (id: number) => knex('campaigns').where({ id }).first();
  const numberStates = async (id: number) => (await knex('campaign_numbers').where({ campaignId: id }).orderBy('id').select('status')).map((r: { status: string }) => r.status);

  async function readyCampaign(list: string[], over: Parameters<typeof insertCampaign>[1] extends infer T ? Partial<T> : never = {}): Promise<number> {
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'waiting_processing', ...over });
    await insertPendingNumbers(knex, ws.id, id, list);
    return id;
  }

  it('waits on a durable timer until the execution date, then sends each number once with the template and its {{1}}', async () => {
    // The server's clock, not the machine's: earlier tests skipped it forward.
    const at = (await env.currentTimeMs()) + 3 * 86_400_000;
    const list = phones(3, 100);
    const id = await readyCampaign(list, { executionDate: new Date(at) });
    const [op] = await knex('operators').insert({ name: 'Supervisora', email: `${unique('sup')}@exemplo.com.br` }).returning('id');
    await knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 6 });
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      await until(async () => (await handle.query(campaignRunStateQuery)).phase === 'scheduled', 'scheduled');
      expect(sentTo()).to.deep.equal([]);
      expect((await campaign(id)).status).to.equal('waiting_processing');
      expect(await handle.result()).to.equal('finished_success');
    });
    expect(await env.currentTimeMs()).to.be.at.least(at);
    // Each once; on a Cloud line a few sends wait on Meta at once, so they may arrive in another order.
    expect([...sentTo()].sort()).to.deep.equal([...list].sort());
    const first = graph.sent.find((s) => s.body.to === list[0])!.body;
    expect(first).to.deep.include({ type: 'template' });
    expect(first.template).to.deep.equal({ name: 'oferta', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Cliente 0' }] }] });
    const c = await campaign(id);
    expect(c).to.include({ status: 'finished_success', totalNumbersExecuted: 3, totalNumbersFailed: 0 });
    expect(await numberStates(id)).to.deep.equal(['sent', 'sent', 'sent']);
    const rows = await knex('campaign_numbers').where({ campaignId: id }).orderBy('id');
    expect(rows.map((r: { idempotencyKey: string }) => r.idempotencyKey)).to.deep.equal(rows.map((r: { id: number }) => `campaign:${id}:${r.id}`));
    expect(rows.every((r: { externalId: string }) => r.externalId.startsWith('wamid.'))).to.equal(true);
    // Progress went out live on the level-6 member's own topic, ending with the final status.
    const live = publisher.events.filter((e) => e.topic === `ws/${ws.id}/op/${op.id}` && e.event === 'campaign.status').map((e) => e.data as { status: string; totalNumbersExecuted: number; completion: number });
    expect(live.map((e) => e.status)).to.include('executing');
    expect(live.at(-1)).to.include({ status: 'finished_success', totalNumbersExecuted: 3, completion: 100 });
  });

  it('paces a batch with random waits in [min, max] and waits timeBetweenChunks between batches; the clock moved by exactly those waits', async () => {
    const id = await readyCampaign(phones(7, 200), { chunks: 3, timeBetweenChunks: 600, initialTimeBetweenMessages: 10, finalTimeBetweenMessages: 20 });
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      expect(await handle.result()).to.equal('finished_success');
      // The run's own span on the server's clock: from its first event to its completion.
      const events = (await handle.fetchHistory()).events!;
      const ms = (e: (typeof events)[number]) => Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
      const elapsed = ms(events.at(-1)!) - ms(events[0]);
      const { waits } = await handle.query(campaignRunStateQuery);
      expect(waits.map(([k]) => k)).to.deep.equal(['message', 'message', 'chunk', 'message', 'message', 'chunk']);
      for (const [kind, ms] of waits) {
        if (kind === 'chunk') expect(ms).to.equal(600_000);
        else expect(ms).to.be.within(10_000, 20_000);
      }
      const total = waits.reduce((s, [, ms]) => s + ms, 0);
      expect(elapsed).to.be.at.least(total);
      // Beyond the waits only the activities' real time (the server does not skip time while they run, and a
      // busy machine slows them); one wait more than recorded would add at least the 10 s minimum.
      expect(elapsed).to.be.below(total + 10_000);
    });
    expect(new Set(sentTo()).size).to.equal(7);
  });

  it('pauses while executing (a wait ends, nothing more is sent), resumes through waiting_processing, and finishes every number once', async () => {
    const list = phones(3, 300);
    const id = await readyCampaign(list, { chunks: 1, timeBetweenChunks: 3600 });
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      await until(async () => sentTo().length === 1 && (await handle.query(campaignRunStateQuery)).phase === 'waiting', 'first send and the batch wait');
      const paused = await updateCampaign(appDeps(), actor, id, { status: 'paused' });
      expect(paused.status).to.equal('paused');
      await until(async () => (await handle.query(campaignRunStateQuery)).phase === 'paused', 'paused');
      expect(sentTo()).to.deep.equal([list[0]]);
      const resumed = await updateCampaign(appDeps(), actor, id, { status: 'waiting_processing' });
      expect(resumed.status).to.equal('waiting_processing');
      expect(await handle.result()).to.equal('finished_success');
    });
    expect(sentTo()).to.deep.equal(list);
  });

  it('cancels while scheduled, while waiting between messages and while paused: ends canceled, no further send', async () => {
    const w = await worker();
    await w.runUntil(async () => {
      const scheduled = await readyCampaign(phones(2, 400), { executionDate: new Date((await env.currentTimeMs()) + 86_400_000) });
      const h1 = await start(scheduled);
      await until(async () => (await h1.query(campaignRunStateQuery)).phase === 'scheduled', 'scheduled');
      await updateCampaign(appDeps(), actor, scheduled, { status: 'canceled' });
      expect(await h1.result()).to.equal('canceled');

      const waiting = await readyCampaign(phones(3, 500), { initialTimeBetweenMessages: 600, finalTimeBetweenMessages: 900 });
      const h2 = await start(waiting);
      await until(async () => (await h2.query(campaignRunStateQuery)).phase === 'waiting', 'waiting between messages');
      await updateCampaign(appDeps(), actor, waiting, { status: 'canceled' });
      expect(await h2.result()).to.equal('canceled');
      expect(await numberStates(waiting)).to.deep.equal(['sent', 'pending', 'pending']);

      const paused = await readyCampaign(phones(3, 600), { chunks: 1, timeBetweenChunks: 3600 });
      const h3 = await start(paused);
      await until(async () => (await h3.query(campaignRunStateQuery)).phase === 'waiting', 'batch wait');
      await updateCampaign(appDeps(), actor, paused, { status: 'paused' });
      await until(async () => (await h3.query(campaignRunStateQuery)).phase === 'paused', 'paused');
      await updateCampaign(appDeps(), actor, paused, { status: 'canceled' });
      expect(await h3.result()).to.equal('canceled');
      expect(await numberStates(paused)).to.deep.equal(['sent', 'pending', 'pending']);
    });
    expect(sentTo()).to.have.length(2);
  });

  it('a line whose token Meta refuses pauses the campaign with a visible reason (the number stays pending); resumed after the fix, it finishes', async () => {
    const list = phones(3, 700);
    const id = await readyCampaign(list, { initialTimeBetweenMessages: 60, finalTimeBetweenMessages: 60 });
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      await until(async () => sentTo().length === 1 && (await handle.query(campaignRunStateQuery)).phase === 'waiting', 'first send and its wait');
      // Meta refuses the line's token from the next send on.
      graph.nextSendErrors.push(GRAPH_ERRORS.expiredToken);
      await env.sleep(60_000);
      await until(async () => (await campaign(id)).status === 'paused', 'paused by the line');
      const c = await campaign(id);
      expect(c.pauseReason).to.match(/^A linha de WhatsApp da campanha está desconectada/);
      expect((await knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
      expect(await numberStates(id)).to.deep.equal(['sent', 'pending', 'pending']);
      await until(async () => (await handle.query(campaignRunStateQuery)).phase === 'paused', 'workflow waiting');
      // The line is saved again (connected); the user resumes.
      await knex('channels').where({ id: line.id }).update({ status: 'connected' });
      await updateCampaign(appDeps(), actor, id, { status: 'waiting_processing' });
      expect(await handle.result()).to.equal('finished_success');
    });
    expect(sentTo()).to.deep.equal(list);
    expect((await campaign(id)).pauseReason).to.equal(null);
  });

  it('a QR line that cannot send yet pauses at the first number instead of failing every number', async () => {
    const qr = await makeQrLineRow(knex, ws.id);
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: qr, status: 'waiting_processing', template: null });
    await insertPendingNumbers(knex, ws.id, id, phones(2, 800));
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      await until(async () => (await campaign(id)).status === 'paused', 'paused');
      expect((await campaign(id)).pauseReason).to.match(/desconectada/);
      expect(await numberStates(id)).to.deep.equal(['pending', 'pending']);
      await updateCampaign(appDeps(), actor, id, { status: 'canceled' });
      expect(await handle.result()).to.equal('canceled');
    });
  });

  it('start-up reconcile: starts campaign:{id} for unfinished campaigns whose workflow never started (one still waiting for its file, a paused one), not for a running or finished one, never twice', async () => {
    // The api stopped between the insert and the workflow's start: a campaign with its file, never processed.
    const list = phones(3, 800);
    const file = await storeUpload(knex, config, ws.id, 'numeros.csv', Buffer.from(`telefone;nome\n${list.map((p, i) => `${p};Cliente ${i}`).join('\n')}\n`));
    const stuck = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, file, template: null });
    const paused = await readyCampaign(phones(2, 810), { status: 'paused' });
    const finished = await readyCampaign(phones(1, 820), { status: 'finished_success' });
    // Already running (paused, waiting for a resume: no timer the skipping server could run ahead).
    const scheduled = await readyCampaign(phones(1, 830), { status: 'paused' });
    const ours = [stuck, paused, finished, scheduled];
    const statusOf = (id: number) => env.client.workflow.getHandle(workflowIds.campaign(id)).describe().then((d) => d.status.name, () => 'none');
    const w = await worker();
    await w.runUntil(async () => {
      const running = await start(scheduled);
      await until(async () => (await running.query(campaignRunStateQuery)).phase === 'paused', 'running, paused');
      expect(await reconcileCampaigns(appDeps(), { campaignIds: ours })).to.equal(2);
      expect(await statusOf(finished)).to.equal('none');
      expect((await env.client.workflow.getHandle(workflowIds.campaign(scheduled)).describe()).runId, 'the running one is kept').to.equal(running.firstExecutionRunId);
      // Polled, not awaited with result(): awaiting a result lets the server skip time, up to the idle runs' own timeouts.
      await until(async () => (await statusOf(stuck)) === 'COMPLETED', 'the stuck campaign ran', 60_000);
      await until(async () => (await env.client.workflow.getHandle(workflowIds.campaign(paused)).query(campaignRunStateQuery)).phase === 'paused', 'the paused one waits');
      expect(await reconcileCampaigns(appDeps(), { campaignIds: ours }), 'nothing left to start').to.equal(0);
      expect(await statusOf(paused)).to.equal('RUNNING');
      for (const id of [paused, scheduled]) await updateCampaign(appDeps(), actor, id, { status: 'canceled' });
      expect(await running.result()).to.equal('canceled');
    });
    expect([...sentTo()].sort()).to.deep.equal([...list].sort());
    expect(await campaign(stuck)).to.include({ status: 'finished_success', totalNumbers: 3, totalNumbersExecuted: 3 });
    expect(await numberStates(paused)).to.deep.equal(['pending', 'pending']);
  });

  it(`continues as new on a 20k-number campaign (batches of 50 without waits: bursts of 50, at most ${MAX_BURST}; ${STEPS_PER_RUN} sends per run) and sends each number exactly once`, async function () {
    this.timeout(600_000);
    const list = phones(20_000, 10_000);
    // Batches of 50 end each burst at 50 numbers: 400 send steps, past STEPS_PER_RUN.
    const id = await readyCampaign(list, { chunks: 50, timeBetweenChunks: 0 });
    const w = await worker();
    await w.runUntil(async () => {
      const handle = await start(id);
      expect(await handle.result()).to.equal('finished_success');
      const last = await env.client.workflow.getHandle(workflowIds.campaign(id)).describe();
      expect(last.runId).to.not.equal(handle.firstExecutionRunId);
      const history = await env.client.workflow.getHandle(workflowIds.campaign(id), handle.firstExecutionRunId).fetchHistory();
      expect(history.events!.length).to.be.below(10_000);
    });
    const sent = sentTo();
    expect(sent).to.have.length(20_000);
    expect(new Set(sent).size).to.equal(20_000);
    expect(await campaign(id)).to.include({ status: 'finished_success', totalNumbersExecuted: 20_000 });
    // The test database is shared by the whole run: 20k rows would slow every later whole-table check (security digests).
    await knex('campaign_numbers').where({ campaignId: id }).delete();
  });
});
