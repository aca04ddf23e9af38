import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { verifyPassword } from '../../api/auth/passwords';
import { seedDemo, DEMO_LOGIN } from '../../scripts/lib/seed';
import { BOT_TEXTS, DEMO_BOT_NAME } from '../../scripts/lib/seed/bot';
import { DEMO_SEGMENT_NAME } from '../../scripts/lib/seed/segments';
import { SEEDING_DOMAIN } from '../../scripts/lib/seed/team';
import { menuText } from '../../workflows/bots/replies';
import { startTestApi, type TestApi } from '../helpers/api';
import { unique } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { eventually, botMessagesCount, sessionStatus } from '../bots/support';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const DAY = 86_400_000;

/** Every row of the demo workspace, table by table, as one digest each: what a second seed must not change. */
async function snapshot(api: TestApi, workspaceId: number): Promise<Record<string, string>> {
  const { knex } = api.deps;
  const tables: { tableName: string }[] = await knex('information_schema.columns').where({ tableSchema: 'public', columnName: 'workspace_id' }).select('table_name');
  const out: Record<string, string> = {};
  for (const { tableName } of tables) {
    const { rows } = await knex.raw(`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ?? t WHERE workspace_id = ?`, [tableName, workspaceId]);
    out[tableName] = `${rows[0].n}:${rows[0].digest}`;
  }
  const ops = await knex.raw(`SELECT count(*)::int AS n, md5(string_agg(o::text, '|' ORDER BY o.id)) AS digest FROM operators o WHERE email LIKE '%@balcao.dev'`);
  out.operators = `${ops.rows[0].n}:${ops.rows[0].digest}`;
  return out;
}

describe('demo workspace seed (npm start)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let workspaceId: number;
  let token: string;
  let leftoverId: number;
  const now = new Date();

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('seed') });
    const { knex } = api.deps;
    expect(await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first(), 'the run database must not hold a demo yet').to.equal(undefined);
    // What a start killed half-way through its seed left: a workspace and a team still on their seeding addresses.
    const [leftover] = await knex('workspaces').insert({ name: 'Padaria Pão Quente', customerIdentifier: unique('seed-leftover') }).returning('id');
    const [op] = await knex('operators').insert({ name: 'Dona Demo', email: `owner@${SEEDING_DOMAIN}` }).returning('id');
    await knex('workspace_members').insert({ workspaceId: leftover.id, operatorId: op.id, accessLevel: 10 });
    leftoverId = leftover.id;
    expect(await seedDemo(knex, { trialDays: 7, publicUrl: api.config.publicUrl, dataDir: api.config.dataDir, now })).to.equal(true);
    const owner = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first();
    ({ workspaceId } = await knex('workspace_members').where({ operatorId: owner.id }).first());
    const login = await api.request('POST', '/api/operators/login', { body: DEMO_LOGIN });
    expect(login.status).to.equal(200);
    token = login.body.data.workspace.token;
  });
  after(() => api?.close());

  const get = (path: string) => api.request('GET', path, { token });

  it('creates the owner, an agent at each level 9/6/3/2, two groups, tags, quick phrases, the chat widget and a trial', async () => {
    const { knex } = api.deps;
    const owner = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first();
    expect(await verifyPassword(owner.passwordHash, DEMO_LOGIN.password)).to.equal(true);
    const levels = (await knex('workspace_members').where({ workspaceId }).orderBy('accessLevel', 'desc').select('accessLevel')).map((r) => r.accessLevel);
    expect(levels).to.deep.equal([10, 9, 6, 3, 2]);
    expect((await knex('groups').where({ workspaceId }).orderBy('id').select('name')).map((g) => g.name)).to.deep.equal(['Atendimento', 'Vendas']);
    expect(Number((await knex('labels').where({ workspaceId }).count({ n: '*' }).first())?.n)).to.equal(4);
    expect(Number((await knex('quick_phrases').where({ workspaceId }).count({ n: '*' }).first())?.n)).to.be.greaterThan(0);
    const widget = await knex('channels').where({ workspaceId, type: 'widget' }).first();
    expect(widget).to.include({ platformId: 4, status: 'connected' });
    expect(widget.identifier).to.match(/^[0-9a-f]{32}$/);
    expect(await knex('subscriptions').where({ workspaceId }).first()).to.include({ license: 'trial', status: 'active' });
  });

  it('removes what an interrupted seed left before writing the demo, and leaves no seeding address behind', async () => {
    const { knex } = api.deps;
    expect(await knex('workspaces').where({ id: leftoverId }).first()).to.equal(undefined);
    expect(await knex('operators').whereILike('email', `%@${SEEDING_DOMAIN}`).first()).to.equal(undefined);
    // Other tests of the run may name a workspace the same: count only the demo owner's.
    const owned = await knex('workspaces as w')
      .join('workspace_members as m', 'm.workspace_id', 'w.id')
      .join('operators as o', 'o.id', 'm.operator_id')
      .where({ 'w.name': 'Padaria Pão Quente' })
      .whereRaw('lower(o.email) = ?', [DEMO_LOGIN.email])
      .pluck('w.id');
    expect(owned).to.deep.equal([workspaceId]);
  });

  it('gives the owner an inbox with open, resolved, starred and assigned conversations, and the counters that go with them', async () => {
    const names = async (segment: string | number) => {
      const res = await get(`/api/inbox?segmentId=${segment}&limit=50`);
      expect(res.status).to.equal(200);
      expect(res.body.matchCount).to.equal(res.body.data.length);
      return (res.body.data as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await names('all')).to.deep.equal(['Beatriz Nunes', 'Gabriela Teixeira', 'Luciana Martins', 'Mariana Costa', 'Ricardo Gomes', 'Thiago Rocha']);
    expect(await names('archived')).to.deep.equal(['Carlos Souza', 'Eduardo Ramos', 'Fernanda Lima', 'João Pereira', 'Patrícia Alves']);
    expect(await names('starred')).to.deep.equal(['Gabriela Teixeira', 'Mariana Costa', 'Ricardo Gomes']);
    expect(await names('me')).to.deep.equal(['Gabriela Teixeira']);
    // Newest activity first: the visitors of the last hour on top.
    const all = (await get('/api/inbox?segmentId=all')).body.data as { name: string; lastMessageAt: string; tags: unknown[] }[];
    expect(all.slice(0, 2).map((c) => c.name)).to.deep.equal(['Beatriz Nunes', 'Thiago Rocha']);

    const segment = await api.deps.knex('segments').where({ workspaceId, name: DEMO_SEGMENT_NAME }).first('id', 'is_public');
    expect(segment.isPublic).to.equal(true);
    expect(await names(segment.id)).to.deep.equal(['Beatriz Nunes', 'Mariana Costa', 'Ricardo Gomes']);

    const counter = await api.request('POST', '/api/inbox/counter', { token });
    expect(counter.status).to.equal(200);
    // Unread: the visitors nobody answered yet (Mariana's return, Luciana and Beatriz after the bot, Thiago).
    expect(counter.body.data).to.deep.include({ all: 4, me: 0, starred: 1, pending: 3 });
    expect(counter.body.data.segments).to.deep.equal({ [segment.id]: 2 });
  });

  it('writes a history spread over three weeks: numbered calls in order, finished ones resolved, notes, tags, a file, bot sessions', async () => {
    const { knex } = api.deps;
    const calls: { protocol: string; createdAt: Date; isFinished: boolean; finishedAt: Date | null; firstResponseAt: Date | null }[] = await knex('calls')
      .where({ workspaceId })
      .orderBy('created_at')
      .select('protocol', 'created_at', 'is_finished', 'finished_at', 'first_response_at');
    expect(calls.map((c) => Number(c.protocol))).to.deep.equal(calls.map((_, i) => i + 1));
    expect(calls.filter((c) => c.isFinished)).to.have.length(6);
    for (const c of calls.filter((x) => x.isFinished)) expect(c.finishedAt!.getTime()).to.be.within(c.createdAt.getTime(), now.getTime());
    expect(now.getTime() - calls[0]!.createdAt.getTime()).to.be.within(20 * DAY, 22 * DAY);
    expect(now.getTime() - calls.at(-1)!.createdAt.getTime()).to.be.below(DAY);

    const messages: { type: number; sender: string; createdAt: Date; isMedia: boolean; status: number }[] = await knex('messages').where({ workspaceId }).select('type', 'sender', 'created_at', 'is_media', 'status');
    expect(messages.every((m) => m.createdAt.getTime() < now.getTime())).to.equal(true);
    expect(messages.filter((m) => m.type === 2).length).to.be.at.least(4);
    expect(messages.filter((m) => m.type === 3 && m.sender === 'bot').length).to.be.at.least(4);
    expect(messages.filter((m) => m.type === 0 && m.sender === 'operator').every((m) => m.status === 2)).to.equal(true);
    expect(messages.filter((m) => m.isMedia)).to.have.length(1);
    expect(await knex('bot_sessions').where({ workspaceId }).pluck('status')).to.deep.equal(['transferred', 'transferred']);

    const tagUses = await knex('call_labels as cl').join('labels as l', 'l.id', 'cl.label_id').where('cl.workspace_id', workspaceId).select('l.name', 'cl.created_at');
    expect(new Set(tagUses.map((t) => t.name))).to.deep.equal(new Set(['Vip', 'Reclamação', 'Orçamento', 'Entrega']));
    expect(tagUses.some((t) => now.getTime() - t.createdAt.getTime() > 14 * DAY)).to.equal(true);

    // The file the team sent opens from the conversation like any upload.
    const fernanda = await knex('customer_platforms as cp').join('customers as c', 'c.id', 'cp.customer_id').where({ 'cp.workspace_id': workspaceId, 'c.name': 'Fernanda Lima' }).first('cp.id');
    const page = await get(`/api/inbox/messages?id=${fernanda.id}`);
    const file = (page.body.data as { content: { file?: { url: string; fileName: string } }[] }[]).flatMap((m) => m.content).find((i) => i.file)?.file;
    expect(file?.fileName).to.equal('cardapio-encomendas.pdf');
    const download = await fetch(new URL(file!.url, api.url));
    expect(download.status).to.equal(200);
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 5).toString()).to.equal('%PDF-');
  });

  it('gives the reports the history as it happened (docs/reports.md): calls opened and finished at their written-back moments, answered ones timed', async () => {
    const { knex } = api.deps;
    const opened = await knex('report_facts as f').join('calls as k', 'k.id', 'f.call_id').where({ 'f.workspace_id': workspaceId, 'f.kind': 1 }).select('f.at', 'k.created_at');
    expect(opened.length).to.equal(Number((await knex('calls').where({ workspaceId }).count({ n: '*' }))[0].n));
    expect(opened.every((r: { at: Date; createdAt: Date }) => r.at.getTime() === r.createdAt.getTime())).to.equal(true);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const res = await get(`/api/report?from=${day(now.getTime() - 30 * DAY)}&to=${day(now.getTime() + DAY)}`);
    expect(res.status).to.equal(200);
    expect(res.body.data.summary.resolvedConversations).to.equal(6);
    expect(res.body.data.summary.firstTimeResponse).to.be.a('number');
    expect(res.body.data.rows.filter((r: { newConversations: number }) => r.newConversations > 0).length).to.be.at.least(5);
  });

  it('has a saved filter, the menu bot active on the widget and the webhook and plugin examples switched off', async () => {
    const bots = await get('/api/bot');
    expect(bots.body.data).to.have.length(1);
    const bot = bots.body.data[0];
    const widget = await api.deps.knex('channels').where({ workspaceId, type: 'widget' }).first('id');
    expect(bot).to.include({ name: DEMO_BOT_NAME, isActive: true });
    expect(bot.channels).to.deep.equal([widget.id]);
    expect(bot.paths.map((p: { guid: string }) => p.guid)).to.deep.equal(['inicio', 'encomendas', 'horarios', 'equipe', 'fim']);

    const webhook = await get('/api/webhook');
    expect(webhook.body.data.webhook).to.equal('https://example.com/balcao/webhook');
    expect(webhook.body.data.disabledAt).to.not.equal(null);
    const plugins = await get('/api/plugin');
    expect(plugins.body.data).to.have.length(1);
    expect(plugins.body.data[0]).to.include({ dev: true });
  });

  it('changes nothing when run again', async () => {
    const before = await snapshot(api, workspaceId);
    expect(await seedDemo(api.deps.knex, { trialDays: 7, publicUrl: api.config.publicUrl, dataDir: api.config.dataDir })).to.equal(false);
    expect(await snapshot(api, workspaceId)).to.deep.equal(before);
  });

  it('the bot answers a new widget visitor with its menu and hands them to Atendimento', async () => {
    const [connection, bundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    const worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: bundle,
      activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config }),
    });
    const running = worker.run();
    try {
      const { identifier } = await api.deps.knex('channels').where({ workspaceId, type: 'widget' }).first('identifier');
      const first = await api.request('POST', '/api/v1/widget/messages', { body: { content: 'Oi!', type: 'text', identifier } });
      expect(first.status).to.equal(201);
      const visitor = first.body.data.visitor;
      const cp = await api.deps.knex('customer_platforms').where({ workspaceId, externalId: visitor.id }).first('id');
      const menu = menuText({ ...BOT_TEXTS.menu, options: BOT_TEXTS.options.map((name) => ({ name })) });
      expect(await botMessagesCount(api.deps.knex, cp.id, 2)).to.deep.equal([BOT_TEXTS.welcome, menu]);

      expect((await api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content: '3', type: 'text', identifier } })).status).to.equal(201);
      const session = await api.deps.knex('bot_sessions').where({ customerPlatformId: cp.id }).first('id');
      await eventually(async () => (await sessionStatus(api.deps.knex, session.id)) === 'transferred', 'handoff');
      const atendimento = await api.deps.knex('groups').where({ workspaceId, name: 'Atendimento' }).first('id');
      const view = await get(`/api/inbox/conversations/${cp.id}`);
      expect(view.body.data).to.include({ groupId: atendimento.id, botId: null });
      expect(await botMessagesCount(api.deps.knex, cp.id, 3)).to.deep.equal([BOT_TEXTS.welcome, menu, BOT_TEXTS.toTeam]);
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
    }
  });
});
