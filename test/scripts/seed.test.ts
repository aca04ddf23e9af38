import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { verifyPassword } from '../../api/auth/passwords';
import { seedDemo, DEMO_LOGIN } from '../../scripts/lib/seed';
import { BOT_TEXTS, DEMO_BOT_NAME } from '../../scripts/lib/seed/bot';
import { PAST_DAYS, pastMonths } from '../../scripts/lib/seed/pastMonths';
import { DEMO_SEGMENT_NAME } from '../../scripts/lib/seed/segments';
import { DEMO_FUNNEL_NAME } from '../../scripts/lib/seed/funnels';
import { DEMO_CSAT } from '../../scripts/lib/seed/csat';
import { SEEDING_DOMAIN } from '../../scripts/lib/seed/team';
import { menuText } from '../../workflows/bots/replies';
import { startTestApi, type TestApi } from '../helpers/api';
import { unique } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { ensureUiBuilt } from '../helpers/browser';
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
    await ensureUiBuilt();
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
    // 'Arquivado' holds the story's five resolved conversations and every contact of the older history.
    const past = pastMonths(now).map((c) => c.visitor.name);
    const archived = await get('/api/inbox?segmentId=archived&limit=50');
    expect(archived.body.matchCount).to.equal(5 + past.length);
    const resolved: string[] = await api.deps.knex('customer_platforms as cp').join('customers as c', 'c.id', 'cp.customer_id').where({ 'cp.workspace_id': workspaceId, 'cp.is_finished': true }).pluck('c.name');
    expect(resolved.sort()).to.deep.equal(['Carlos Souza', 'Eduardo Ramos', 'Fernanda Lima', 'João Pereira', 'Patrícia Alves', ...past].sort());
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

  it('writes a history spread over three months: numbered calls in order, finished ones resolved, notes, tags, a file, bot sessions', async () => {
    const { knex } = api.deps;
    const calls: { protocol: string; createdAt: Date; isFinished: boolean; finishedAt: Date | null; firstResponseAt: Date | null }[] = await knex('calls')
      .where({ workspaceId })
      // Two calls may open in the same second of the generated history: the numbering breaks ties by id.
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('protocol', 'created_at', 'is_finished', 'finished_at', 'first_response_at');
    expect(calls.map((c) => Number(c.protocol))).to.deep.equal(calls.map((_, i) => i + 1));
    // The older history's calls (one per visit: a visitor who came back has two), all resolved, and the story's 12, 6 resolved.
    const pastCalls = pastMonths(now).reduce((n, c) => n + c.steps.filter((s) => 'resolve' in s).length, 0);
    expect(pastCalls).to.be.within(200, 400);
    expect(calls).to.have.length(pastCalls + 12);
    expect(calls.filter((c) => c.isFinished)).to.have.length(pastCalls + 6);
    for (const c of calls.filter((x) => x.isFinished)) expect(c.finishedAt!.getTime()).to.be.within(c.createdAt.getTime(), now.getTime());
    for (const c of calls) if (c.firstResponseAt) expect(c.firstResponseAt.getTime()).to.be.within(c.createdAt.getTime(), now.getTime());
    expect(now.getTime() - calls[0]!.createdAt.getTime()).to.be.within((PAST_DAYS - 1) * DAY, (PAST_DAYS + 1) * DAY);
    // Each call's clocks are what its messages say, as sendMessage keeps them: first agent reply, answers counted once per burst.
    const clocks = await knex.raw(
      `SELECT k.id, k.first_response_at = (SELECT min(m.created_at) FROM messages m WHERE m.call_id = k.id AND m.sender = 'operator' AND m.type = 0) AS "firstOk",
         k.response_count = (SELECT count(*) FROM messages m WHERE m.call_id = k.id AND m.sender = 'operator' AND m.type = 0
           AND (SELECT p.sender FROM messages p WHERE p.call_id = k.id AND p.type IN (0, 4) AND (p.created_at, p.id) < (m.created_at, m.id) ORDER BY p.created_at DESC, p.id DESC LIMIT 1) = 'customer') AS "countOk"
       FROM calls k WHERE k.workspace_id = ? AND k.first_response_at IS NOT NULL`,
      [workspaceId],
    );
    expect(clocks.rows.length).to.be.at.least(pastCalls);
    expect(clocks.rows.filter((r: { firstOk: boolean; countOk: boolean }) => !r.firstOk || !r.countOk)).to.deep.equal([]);
    // A conversation of the older history opens in the inbox with the visitor's messages and the team's answers.
    const older = await knex('customer_platforms as cp').join('customers as c', 'c.id', 'cp.customer_id').where({ 'cp.workspace_id': workspaceId, 'c.name': pastMonths(now)[0]!.visitor.name }).first('cp.id');
    const thread = await get(`/api/inbox/messages?id=${older.id}`);
    expect(thread.status).to.equal(200);
    expect(new Set((thread.body.data as { sender: string }[]).map((m) => m.sender))).to.include.members(['customer', 'operator']);
    // Business hours in São Paulo (UTC-3 all year), more on weekdays than at the weekend.
    const local = calls.map((c) => new Date(c.createdAt.getTime() - 3 * 3_600_000));
    expect(local.filter((d) => d.getUTCHours() >= 7 && d.getUTCHours() < 20).length).to.be.at.least(calls.length - 2);
    const weekend = local.filter((d) => d.getUTCDay() === 0 || d.getUTCDay() === 6).length;
    expect(calls.length - weekend).to.be.at.least(4 * weekend);
    // Every week of the three months has calls.
    for (let week = 0; week < Math.floor(PAST_DAYS / 7); week++) {
      expect(calls.some((c) => now.getTime() - c.createdAt.getTime() >= week * 7 * DAY && now.getTime() - c.createdAt.getTime() < (week + 1) * 7 * DAY), `week ${week}`).to.equal(true);
    }
    expect(now.getTime() - calls.at(-1)!.createdAt.getTime()).to.be.below(DAY);

    const messages: { type: number; sender: string; createdAt: Date; isMedia: boolean; status: number }[] = await knex('messages').where({ workspaceId }).select('type', 'sender', 'created_at', 'is_media', 'status');
    expect(messages.every((m) => m.createdAt.getTime() < now.getTime())).to.equal(true);
    expect(messages.filter((m) => m.type === 2).length).to.be.at.least(4);
    expect(messages.filter((m) => m.type === 3 && m.sender === 'bot').length).to.be.at.least(4);
    expect(messages.filter((m) => m.type === 0 && m.sender === 'operator').every((m) => m.status === 2)).to.equal(true);
    expect(messages.filter((m) => m.isMedia)).to.have.length(1);
    const sessions: string[] = await knex('bot_sessions').where({ workspaceId }).pluck('status');
    expect(sessions.length).to.be.at.least(12);
    expect(new Set(sessions)).to.deep.equal(new Set(['transferred']));

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
    const from = day(now.getTime() - 30 * DAY);
    const finished = await knex('calls').where({ workspaceId, isFinished: true }).whereRaw("finished_at >= (?::date)::timestamp AT TIME ZONE 'America/Sao_Paulo'", [from]).count({ n: '*' });
    expect(res.body.data.summary.resolvedConversations).to.equal(Number(finished[0].n));
    expect(res.body.data.summary.resolvedConversations).to.be.above(6);
    expect(res.body.data.summary.firstTimeResponse).to.be.a('number');
    expect(res.body.data.rows.filter((r: { newConversations: number }) => r.newConversations > 0).length).to.be.at.least(5);
  });

  for (const days of [30, 90]) {
    it(`fills the reports of the last ${days} days: new, resolved, TME and TMA, several agents, both groups, the widget channel`, async () => {
      const day = (t: number) => new Date(t - 3 * 3_600_000).toISOString().slice(0, 10);
      const period = `from=${day(now.getTime() - (days - 1) * DAY)}&to=${day(now.getTime())}`;
      const report = await get(`/api/report?${period}&frequency=weekly`);
      expect(report.status).to.equal(200);
      const { summary, rows } = report.body.data;
      expect(summary.newConversations).to.be.above(days === 30 ? 50 : 150);
      expect(summary.resolvedConversations).to.be.above(days === 30 ? 50 : 150);
      for (const t of ['firstTimeResponse', 'firstTimeResponseMedian', 'timeResponse', 'resolutionTime', 'resolutionTimeP90']) expect(summary[t], t).to.be.above(0);
      // A first answer takes minutes to an hour on average, not seconds nor days.
      expect(summary.firstTimeResponse).to.be.within(60, 3600);
      expect(rows.filter((r: { newConversations: number }) => r.newConversations > 0).length).to.be.at.least(Math.floor(days / 7));

      const agents = await get(`/api/dashboard/agents?${period}`);
      expect(agents.status).to.equal(200);
      const busy = (agents.body.data as { name: string; totalConversations: number; resolvedConversations: number; firstTimeResponse: number | null }[]).filter((a) => a.resolvedConversations > 0 && a.firstTimeResponse !== null);
      expect(busy.length).to.be.at.least(4);

      const { knex } = api.deps;
      for (const group of await knex('groups').where({ workspaceId }).pluck('id')) {
        const res = await get(`/api/report?${period}&groups=${group}`);
        expect(res.body.data.summary.newConversations, `group ${group}`).to.be.above(days === 30 ? 10 : 30);
      }
      // The demo has one channel, the site's chat: its figures are the whole workspace's.
      const widget = await knex('channels').where({ workspaceId }).pluck('id');
      expect(widget).to.have.length(1);
      const byChannel = await get(`/api/report?${period}&channels=${widget[0]}`);
      expect(byChannel.body.data.summary).to.deep.equal(summary);
    });
  }

  it('has a saved filter, the menu bot active on the widget, a working example plugin served by the product and no webhook', async () => {
    const bots = await get('/api/bot');
    expect(bots.body.data).to.have.length(1);
    const bot = bots.body.data[0];
    const widget = await api.deps.knex('channels').where({ workspaceId, type: 'widget' }).first('id');
    expect(bot).to.include({ name: DEMO_BOT_NAME, isActive: true });
    expect(bot.channels).to.deep.equal([widget.id]);
    expect(bot.paths.map((p: { guid: string }) => p.guid)).to.deep.equal(['inicio', 'encomendas', 'horarios', 'equipe', 'fim']);

    const webhook = await get('/api/webhook');
    expect(webhook.body.data).to.include({ webhook: '', disabledAt: null });
    const plugins = await get('/api/plugin');
    expect(plugins.body.data).to.have.length(1);
    expect(plugins.body.data[0]).to.include({ dev: false, endpoint: '/plugins/exemplo-pedidos.html' });
    // The page is there: the product serves it (the inbox frames it from the app's own address).
    const page = await fetch(`${api.url}/plugins/exemplo-pedidos.html`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('exemplo-pedidos.js');
  });

  it('has scheduled messages (docs/scheduled-messages.md): pending ones by their members, a weekly one with the order form, a canceled one', async () => {
    const res = await get('/api/schedules');
    expect(res.status).to.equal(200);
    const rows = res.body.data as { state: string; repeat: string; dueAt: string; file: { fileName: string } | null; operator: { name: string } | null; contactName: string }[];
    expect(rows.map((r) => r.state).sort()).to.deep.equal(['canceled', 'scheduled', 'scheduled', 'scheduled']);
    const pending = rows.filter((r) => r.state === 'scheduled');
    expect(pending.every((r) => Date.parse(r.dueAt) > now.getTime())).to.equal(true);
    const weekly = rows.find((r) => r.repeat === 'weekly')!;
    expect(weekly.file?.fileName).to.match(/^cardapio/);
    expect(new Set(rows.map((r) => r.operator?.name)).size).to.be.greaterThan(1);
  });

  it('has a kanban funnel (docs/kanban.md): Encomendas with its five stages in order, conversations in them, and the board grouped by it shows them', async () => {
    const funnels = await get('/api/funnels');
    expect(funnels.status).to.equal(200);
    const funnel = (funnels.body.data as { id: number; name: string; stages: { id: number; name: string; color: string }[] }[]).find((f) => f.name === DEMO_FUNNEL_NAME)!;
    expect(funnel.stages.map((s) => s.name)).to.deep.equal(['Novo pedido', 'Orçamento enviado', 'Confirmado', 'Em produção', 'Entregue']);
    expect(funnel.stages.every((s) => /^#[0-9A-F]{6}$/.test(s.color))).to.equal(true);
    const cards = new Map<string, string[]>();
    for (const segmentId of ['all', 'archived']) {
      const board = await get(`/api/kanban?groupBy=stage&funnelId=${funnel.id}&segmentId=${segmentId}`);
      expect(board.status).to.equal(200);
      for (const col of board.body.data.columns as { key: string; data: { name: string }[] }[]) {
        if (col.key === 'none') continue;
        cards.set(col.key, [...(cards.get(col.key) ?? []), ...col.data.map((c) => c.name)]);
      }
    }
    expect([...cards.values()].flat().sort()).to.deep.equal(['Beatriz Nunes', 'Fernanda Lima', 'Gabriela Teixeira', 'João Pereira', 'Mariana Costa', 'Ricardo Gomes']);
    expect([...cards.values()].filter((names) => names.length > 0).length, 'spread over the stages').to.equal(5);
    const open = await get(`/api/kanban?groupBy=stage&funnelId=${funnel.id}`);
    const openCards = (open.body.data.columns as { key: string; data: unknown[] }[]).filter((c) => c.key !== 'none').flatMap((c) => c.data);
    expect(openCards.length, 'the default board (open conversations) shows some of them').to.be.greaterThan(1);
  });

  it('has satisfaction ratings (docs/csat.md): the widget’s survey on, two months of rated calls in the reports per agent, and the story’s rated call in the inbox', async () => {
    const widget = await api.deps.knex('channels').where({ workspaceId, type: 'widget' }).first('id', 'csat');
    expect(widget.csat).to.include({ enabled: true, scale: 'numbers' });
    const settings = await get(`/api/csat/channels/${widget.id}`);
    expect(settings.body.data).to.include({ enabled: true, question: DEMO_CSAT.question });
    for (const days of [7, 30]) {
      const local = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
      const report = await get(`/api/report/csat?from=${local(now.getTime() - (days - 1) * DAY)}&to=${local(now.getTime())}`);
      expect(report.status).to.equal(200);
      const { summary, agents } = report.body.data;
      expect(summary.count, `ratings in the last ${days} days`).to.be.greaterThan(days === 7 ? 2 : 15);
      expect(summary.average).to.be.within(3, 5);
      expect(summary.answerRate).to.be.within(40, 95);
      if (days === 30) {
        expect(summary.distribution.filter((d: { count: number }) => d.count > 0).length, 'several ratings').to.be.greaterThan(2);
        expect(agents.filter((a: { id: number | null }) => a.id !== null).length, 'several agents').to.be.greaterThan(2);
      }
    }
    const comments = await api.deps.knex('calls').where({ workspaceId }).whereNotNull('csat_comment').count({ n: '*' }).first();
    expect(Number(comments?.n)).to.be.greaterThan(3);
    // Every rated call has its question, in the call, as Resolver stores it.
    const orphans = await api.deps.knex('calls as k').leftJoin('messages as m', 'm.id', 'k.csat_message_id').where('k.workspace_id', workspaceId).whereNotNull('k.csat_state').whereRaw('(m.id IS NULL OR m.call_id <> k.id)').count({ n: '*' }).first();
    expect(Number(orphans?.n)).to.equal(0);
    // Mariana Costa's first call (resolved 21 days ago) was rated 5, shown on the question's bubble.
    const mariana = await api.deps.knex('calls as k').join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id').join('customers as c', 'c.id', 'cp.customer_id').where({ 'c.workspace_id': workspaceId, 'c.name': 'Mariana Costa' }).orderBy('k.id').first('k.*');
    expect(mariana).to.include({ csatState: 'answered', csatRating: 5 });
    const messages = await get(`/api/inbox/messages?id=${mariana.customerPlatformId}&callId=${mariana.id}&limit=30`);
    const question = messages.body.data.find((m: { id: number }) => m.id === mariana.csatMessageId);
    expect(question.Call.extraData.csat).to.include({ kind: 'question', rating: 5 });
  });

  it('has a team chat (docs/team-chat.md): the owner sees the room Gerência and Alice’s direct message unread; Alice the groups’ rooms, a #protocolo linked for her', async () => {
    const rooms = await get('/api/team/rooms');
    expect(rooms.status).to.equal(200);
    const own = rooms.body.data as { name: string; kind: string; unread: number; lastMessage: { preview: string } }[];
    expect(own.map((r) => [r.kind, r.name]).sort()).to.deep.equal([['direct', 'Alice Agente'], ['room', 'Gerência']]);
    expect(rooms.body.unread).to.equal(2);
    expect(own.find((r) => r.kind === 'direct')!.lastMessage.preview).to.equal('Posso sim! Chego às 7h.');
    const login = await api.request('POST', '/api/operators/login', { body: { email: 'agente@balcao.dev', password: DEMO_LOGIN.password } });
    const alice = login.body.data.workspace.token as string;
    const hers = (await api.request('GET', '/api/team/rooms', { token: alice })).body.data as { id: number; name: string; kind: string }[];
    expect(hers.map((r) => r.name).sort()).to.deep.equal(['Atendimento', 'Dona Demo', 'Vendas']);
    const vendas = hers.find((r) => r.name === 'Vendas')!;
    const lines = (await api.request('GET', `/api/team/rooms/${vendas.id}/messages`, { token: alice })).body.data as { body: string; mentions: { conversationId: number }[] }[];
    const mentioning = lines.find((m) => m.body.includes('#'))!;
    expect(mentioning.mentions).to.have.length(1);
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
