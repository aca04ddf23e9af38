import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { makeChannel, makeConversation, makeGroup, makeLabel, type TestChannel } from '../inbox/factories';

interface Card {
  id: number;
  operatorId: number | null;
  groupId: number | null;
  stageId: number | null;
  isFinished: boolean;
  tags: { id: number }[];
}
interface Column {
  key: string;
  name: string | null;
  color: string | null;
  data: Card[];
  matchCount: number | null;
  nextCursor: string | null;
}

describe('kanban: columns by status, tag, group and funnel stage; moves through the inbox commands; funnels', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let restricted: TestOperator;
  let channel: TestChannel;
  let group: number;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    master = await makeOperator(knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    restricted = await makeOperator(knex, api.config.jwtSecret, ws, 2);
    channel = await makeChannel(knex, ws);
    group = await makeGroup(knex, ws, [agent.id]);
  });
  after(() => api.close());

  const get = (path: string, token: string) => api.request('GET', path, { token });
  const move = (token: string, body: Record<string, unknown>) => api.request('POST', '/api/kanban/move', { token, body });

  async function board(token: string, params: Record<string, string>): Promise<Column[]> {
    const res = await get(`/api/kanban?${new URLSearchParams(params)}`, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.columns as Column[];
  }
  const column = (cols: Column[], key: string) => cols.find((c) => c.key === key)!;
  const ids = (c: Column | undefined) => (c?.data ?? []).map((x) => x.id);

  /** Every card of a column through its cursor pages. */
  async function allOf(token: string, params: Record<string, string>, key: string, limit = 3): Promise<number[]> {
    const first = column(await board(token, { ...params, limit: String(limit) }), key);
    const out = ids(first);
    let cursor = first.nextCursor;
    for (let i = 0; cursor && i < 100; i++) {
      const res: ApiResponse = await get(`/api/kanban/column?${new URLSearchParams({ ...params, column: key, cursor, limit: String(limit) })}`, token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      out.push(...res.body.data.map((c: Card) => c.id));
      cursor = res.body.nextCursor;
    }
    return out;
  }

  async function listen(...ops: TestOperator[]): Promise<{ events: Map<number, Received[]>; close: () => Promise<void> }> {
    const clients = new Clients(api.url);
    const events = new Map<number, Received[]>();
    for (const op of ops) {
      const client = await clients.connect(String(op.id), op.token);
      events.set(op.id, inbox(client));
      await subscribeCodes(client, [topics.operator(ws.id, op.id), topics.workspace(ws.id)]);
    }
    return { events, close: () => clients.endAll() };
  }
  const eventsAbout = (list: Received[] | undefined, id: number) =>
    (list ?? []).filter((r) => (r.envelope.data as { conversation?: { id: number }; conversationId?: number }).conversation?.id === id || (r.envelope.data as { conversationId?: number }).conversationId === id);

  it('groups by status: waiting, in service and resolved columns, newest first, each paged with its own cursor and counted', async () => {
    const w = await makeWorkspace(knex);
    const boss = await makeOperator(knex, api.config.jwtSecret, w, 10);
    const ch = await makeChannel(knex, w);
    const waiting: number[] = [];
    const active: number[] = [];
    const resolved: number[] = [];
    for (let i = 0; i < 7; i++) waiting.push((await makeConversation(api.deps, ch)).conversationId);
    for (let i = 0; i < 4; i++) active.push((await makeConversation(api.deps, ch, { operatorId: boss.id })).conversationId);
    for (let i = 0; i < 5; i++) {
      const c = await makeConversation(api.deps, ch);
      expect((await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: boss.token, body: { status: 'resolve' } })).status).to.equal(200);
      resolved.push(c.conversationId);
    }
    const cols = await board(boss.token, { groupBy: 'status' });
    expect(cols.map((c) => c.key)).to.deep.equal(['waiting', 'active', 'resolved']);
    expect(cols.map((c) => c.matchCount)).to.deep.equal([7, 4, 5]);
    // Newest activity first: the conversations were made in order.
    expect(ids(column(cols, 'waiting'))).to.deep.equal([...waiting].reverse());
    expect(await allOf(boss.token, { groupBy: 'status' }, 'waiting')).to.deep.equal([...waiting].reverse());
    expect(await allOf(boss.token, { groupBy: 'status' }, 'active', 3)).to.deep.equal([...active].reverse());
    expect(await allOf(boss.token, { groupBy: 'status' }, 'resolved', 2)).to.deep.equal([...resolved].reverse());
    // The inbox's filters: "Meus" leaves the caller's own; a search narrows every column.
    const mine = await board(boss.token, { groupBy: 'status', segmentId: 'me' });
    expect(mine.map((c) => ids(c).length)).to.deep.equal([0, 4, 0]);
    const name = (await knex('customers as c').join('customer_platforms as cp', 'cp.customer_id', 'c.id').where('cp.id', waiting[2]).first('c.name')).name as string;
    const found = await board(boss.token, { groupBy: 'status', query: name });
    expect(found.map(ids)).to.deep.equal([[waiting[2]], [], []]);
  });

  it('drags across status columns with the inbox commands: resolve (session:status:changed recorded, chat.callStatus published), back to waiting reopens and unassigns, to in service assigns the caller', async () => {
    await knex('webhooks').insert({ workspaceId: ws.id, url: 'https://hooks.exemplo.com.br/k', subscriptions: ['session:status:changed'], secret: 'whsec_kanban' });
    const c = await makeConversation(api.deps, channel, { operatorId: master.id });
    const live = await listen(owner, master);
    try {
      const resolved = await move(master.token, { id: c.conversationId, groupBy: 'status', from: 'active', to: 'resolved' });
      expect(resolved.status, JSON.stringify(resolved.body)).to.equal(200);
      expect(resolved.body.data).to.include({ id: c.conversationId, isFinished: true, operatorId: master.id });
      const call = await knex('calls').where({ id: c.callId }).first('is_finished', 'finished_at');
      expect(call.isFinished).to.equal(true);
      const hooks = await knex('webhook_deliveries').where({ workspaceId: ws.id, event: 'session:status:changed' }).select('payload');
      expect(hooks).to.have.length(1);
      for (const op of [owner, master]) {
        await waitFor(() => eventsAbout(live.events.get(op.id), c.conversationId).find((r) => r.envelope.event === 'chat.callStatus' && (r.envelope.data as { conversation: Card }).conversation.isFinished), 15_000, 'resolve published');
      }
      expect(column(await board(master.token, { groupBy: 'status' }), 'resolved').data.map((x) => x.id)).to.include(c.conversationId);

      const back = await move(master.token, { id: c.conversationId, groupBy: 'status', from: 'resolved', to: 'waiting' });
      expect(back.status, JSON.stringify(back.body)).to.equal(200);
      expect(back.body.data).to.include({ isFinished: false, operatorId: null });
      expect(Number((await knex('calls').where({ customerPlatformId: c.conversationId }).count({ n: '*' }))[0].n), 'reopening opens a new call').to.equal(2);
      expect(ids(column(await board(master.token, { groupBy: 'status' }), 'waiting'))).to.include(c.conversationId);

      const taken = await move(agent.token, { id: c.conversationId, groupBy: 'status', from: 'waiting', to: 'active' });
      expect(taken.status, JSON.stringify(taken.body)).to.equal(200);
      expect(taken.body.data).to.include({ isFinished: false, operatorId: agent.id });
      await waitFor(() => eventsAbout(live.events.get(owner.id), c.conversationId).find((r) => (r.envelope.data as { conversation?: Card }).conversation?.operatorId === agent.id), 15_000, 'assignment published');

      // The same column again changes nothing and publishes nothing.
      const before = eventsAbout(live.events.get(owner.id), c.conversationId).length;
      expect((await move(agent.token, { id: c.conversationId, groupBy: 'status', to: 'active' })).body.data.operatorId).to.equal(agent.id);
      expect(await knex('webhook_deliveries').where({ workspaceId: ws.id, event: 'session:status:changed' }).count({ n: '*' }).then((r) => Number(r[0].n))).to.equal(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(eventsAbout(live.events.get(owner.id), c.conversationId).length).to.equal(before);
    } finally {
      await live.close();
    }
  });

  it('groups by group and by tag; a move transfers the group or swaps the tag it was dragged from, and "none" clears', async () => {
    const vip = await makeLabel(knex, ws);
    const late = await makeLabel(knex, ws);
    const c = await makeConversation(api.deps, channel);
    await knex('call_labels').insert([vip, late].map((labelId) => ({ workspaceId: ws.id, callId: c.callId, labelId })));

    const byTag = await board(owner.token, { groupBy: 'tag' });
    expect(byTag[0].key).to.equal('none');
    expect(ids(column(byTag, String(vip)))).to.include(c.conversationId);
    expect(ids(column(byTag, String(late))), 'a card with two tags sits in both columns').to.include(c.conversationId);
    expect(column(byTag, String(vip)).matchCount, 'tag columns are not counted').to.equal(null);

    const third = await makeLabel(knex, ws);
    const swapped = await move(owner.token, { id: c.conversationId, groupBy: 'tag', from: String(vip), to: String(third) });
    expect(swapped.status, JSON.stringify(swapped.body)).to.equal(200);
    expect(swapped.body.data.tags.map((t: { id: number }) => t.id).sort()).to.deep.equal([late, third].sort());
    const cleared = await move(owner.token, { id: c.conversationId, groupBy: 'tag', from: String(late), to: 'none' });
    expect(cleared.body.data.tags).to.deep.equal([]);
    expect(ids(column(await board(owner.token, { groupBy: 'tag' }), 'none'))).to.include(c.conversationId);

    const byGroup = await board(owner.token, { groupBy: 'group' });
    expect(byGroup.map((x) => x.key)).to.include.members(['none', String(group)]);
    expect(ids(column(byGroup, 'none'))).to.include(c.conversationId);
    const moved = await move(owner.token, { id: c.conversationId, groupBy: 'group', from: 'none', to: String(group) });
    expect(moved.body.data.groupId).to.equal(group);
    const after = await board(owner.token, { groupBy: 'group' });
    expect(ids(column(after, String(group)))).to.include(c.conversationId);
    expect(ids(column(after, 'none'))).to.not.include(c.conversationId);
    // The restricted agent is not in the group: the conversation left their view.
    expect((await move(restricted.token, { id: c.conversationId, groupBy: 'group', to: 'none' })).status).to.equal(404);
    expect((await move(owner.token, { id: c.conversationId, groupBy: 'group', to: 'none' })).body.data.groupId).to.equal(null);
  });

  it('funnels: level 6+ creates and edits stages with order and colour, every level reads them, agents cannot write', async () => {
    const created = await api.request('POST', '/api/funnels', { token: master.token, body: { name: 'Vendas', stages: [{ name: 'Novo', color: '#2E90FA' }, { name: 'Proposta', color: '#F79009' }, { name: 'Fechado', color: '#12B76A' }] } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const funnel = created.body.data;
    expect(funnel.stages.map((s: { name: string; position: number }) => [s.name, s.position])).to.deep.equal([['Novo', 0], ['Proposta', 1], ['Fechado', 2]]);

    for (const op of [agent, restricted]) {
      expect((await get('/api/funnels', op.token)).body.data.map((f: { id: number }) => f.id)).to.include(funnel.id);
      const denied = await api.request('POST', '/api/funnels', { token: op.token, body: { name: 'X', stages: [{ name: 'A', color: '#000000' }] } });
      expect(denied.status).to.equal(403);
      expect((await api.request('PUT', `/api/funnels/${funnel.id}`, { token: op.token, body: { name: 'Y' } })).status).to.equal(403);
    }

    const bad = await api.request('POST', '/api/funnels', { token: master.token, body: { name: '', stages: [{ name: 'A', color: 'azul' }, { name: 'a', color: '#000000' }] } });
    expect(bad.status).to.equal(400);
    const keys = bad.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.include.members(['name', 'stages', 'stages.0.color']);
    expect(bad.body.errors.find((e: { key: string }) => e.key === 'name').descriptions).to.deep.equal(['O nome do funil é obrigatório.']);
    expect(bad.body.errors.find((e: { key: string }) => e.key === 'stages').descriptions).to.deep.equal(['Duas etapas não podem ter o mesmo nome.']);

    // Reordered, one renamed, one new, 'Proposta' left out: it is deleted and its conversation leaves the funnel.
    const [novo, proposta, fechado] = funnel.stages as { id: number }[];
    const c = await makeConversation(api.deps, channel);
    expect((await move(owner.token, { id: c.conversationId, groupBy: 'stage', funnelId: funnel.id, to: String(proposta.id) })).body.data.stageId).to.equal(proposta.id);
    const live = await listen(agent);
    try {
      const edited = await api.request('PUT', `/api/funnels/${funnel.id}`, {
        token: owner.token,
        body: { stages: [{ id: fechado.id, name: 'Ganho', color: '#12B76A' }, { id: novo.id, name: 'Novo', color: '#2E90FA' }, { name: 'Perdido', color: '#F04438' }] },
      });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.body.data.stages.map((s: { id: number; name: string }) => s.name)).to.deep.equal(['Ganho', 'Novo', 'Perdido']);
      expect(edited.body.data.stages[0].id).to.equal(fechado.id);
      expect((await knex('customer_platforms').where({ id: c.conversationId }).first('stage_id')).stageId).to.equal(null);
      await waitFor(() => (live.events.get(agent.id) ?? []).find((r) => r.envelope.event === 'kanban.funnelChanged' && (r.envelope.data as { funnelId: number }).funnelId === funnel.id), 15_000, 'funnel change announced');
    } finally {
      await live.close();
    }
    // A stage id of another funnel cannot be moved in.
    const other = (await api.request('POST', '/api/funnels', { token: owner.token, body: { name: 'Outro', stages: [{ name: 'Só', color: '#000000' }] } })).body.data;
    const stolen = await api.request('PUT', `/api/funnels/${funnel.id}`, { token: owner.token, body: { stages: [{ id: other.stages[0].id, name: 'Só', color: '#000000' }] } });
    expect(stolen.status).to.equal(400);
    expect(stolen.body.errors[0]).to.include({ key: 'stages' });
    expect((await api.request('DELETE', `/api/funnels/${other.id}`, { token: agent.token })).status).to.equal(403);
    expect((await api.request('DELETE', `/api/funnels/${other.id}`, { token: master.token })).status).to.equal(200);
  });

  it('a stage move publishes chat.callStatus with stageId to who sees the conversation; the stage stays through resolve and reopen', async () => {
    const funnel = (await api.request('POST', '/api/funnels', { token: owner.token, body: { name: 'Encomendas', stages: [{ name: 'Pedido', color: '#2E90FA' }, { name: 'Produção', color: '#F79009' }] } })).body.data;
    const [pedido, producao] = funnel.stages as { id: number }[];
    const c = await makeConversation(api.deps, channel, { groupId: group });
    const params = { groupBy: 'stage', funnelId: String(funnel.id) };
    expect((await board(owner.token, params)).map((x) => x.key)).to.deep.equal(['none', String(pedido.id), String(producao.id)]);
    expect(ids(column(await board(owner.token, params), 'none'))).to.include(c.conversationId);

    const live = await listen(owner, agent, restricted);
    try {
      const res = await move(agent.token, { id: c.conversationId, groupBy: 'stage', funnelId: funnel.id, from: 'none', to: String(pedido.id) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.stageId).to.equal(pedido.id);
      for (const op of [owner, agent]) {
        await waitFor(() => eventsAbout(live.events.get(op.id), c.conversationId).find((r) => r.envelope.event === 'chat.callStatus' && (r.envelope.data as { conversation: Card }).conversation.stageId === pedido.id), 15_000, `stage published to ${op.id}`);
      }
      // A group conversation is not the restricted agent's (not a member): nothing reaches them.
      expect(eventsAbout(live.events.get(restricted.id), c.conversationId)).to.deep.equal([]);
    } finally {
      await live.close();
    }
    const cols = await board(owner.token, params);
    expect(ids(column(cols, String(pedido.id)))).to.deep.equal([c.conversationId]);
    expect(column(cols, String(pedido.id)).matchCount).to.equal(1);
    expect(ids(column(cols, 'none'))).to.not.include(c.conversationId);

    await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    expect(ids(column(await board(owner.token, params), String(pedido.id))), 'the board shows open conversations like the inbox').to.deep.equal([]);
    expect(ids(column(await board(owner.token, { ...params, segmentId: 'archived' }), String(pedido.id))), 'resolved, it keeps its stage').to.deep.equal([c.conversationId]);
    await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'open' } });
    expect(ids(column(await board(owner.token, params), String(pedido.id))), 'reopened, back in its stage').to.deep.equal([c.conversationId]);

    const moved = await move(owner.token, { id: c.conversationId, groupBy: 'stage', funnelId: funnel.id, to: String(producao.id) });
    expect(moved.body.data.stageId).to.equal(producao.id);
    expect((await move(owner.token, { id: c.conversationId, groupBy: 'stage', funnelId: funnel.id, to: 'none' })).body.data.stageId).to.equal(null);
  });

  it('answers another workspace’s conversation, funnel and stage as 404 or a 400 on the column, and refuses malformed boards in pt-BR', async () => {
    const other = await makeWorkspace(knex);
    const stranger = await makeOperator(knex, api.config.jwtSecret, other, 10);
    const theirs = await makeConversation(api.deps, await makeChannel(knex, other));
    const theirTag = await makeLabel(knex, other);
    const theirGroup = await makeGroup(knex, other, []);
    const theirFunnel = (await api.request('POST', '/api/funnels', { token: stranger.token, body: { name: 'Deles', stages: [{ name: 'Etapa', color: '#000000' }] } })).body.data;
    const mine = await makeConversation(api.deps, channel);

    expect((await move(owner.token, { id: theirs.conversationId, groupBy: 'status', to: 'resolved' })).status).to.equal(404);
    expect((await knex('customer_platforms').where({ id: theirs.conversationId }).first('is_finished')).isFinished).to.equal(false);
    expect((await get(`/api/funnels/${theirFunnel.id}`, owner.token)).status).to.equal(404);
    expect((await api.request('PUT', `/api/funnels/${theirFunnel.id}`, { token: owner.token, body: { name: 'Meu' } })).status).to.equal(404);
    expect((await get(`/api/kanban?groupBy=stage&funnelId=${theirFunnel.id}`, owner.token)).status).to.equal(404);
    expect((await move(owner.token, { id: mine.conversationId, groupBy: 'stage', funnelId: theirFunnel.id, to: String(theirFunnel.stages[0].id) })).status).to.equal(404);
    for (const [groupBy, to] of [['tag', theirTag], ['group', theirGroup]] as const) {
      const res = await move(owner.token, { id: mine.conversationId, groupBy, to: String(to) });
      expect(res.status, groupBy).to.equal(400);
      expect(res.body.errors[0]).to.deep.include({ type: 'ValidationError', key: 'to', descriptions: ['Coluna não encontrada neste quadro.'] });
    }
    const theirCols = await board(stranger.token, { groupBy: 'status' });
    expect(theirCols.flatMap(ids)).to.not.include(mine.conversationId);

    const noFunnel = await get('/api/kanban?groupBy=stage', owner.token);
    expect(noFunnel.status).to.equal(400);
    expect(noFunnel.body.errors[0]).to.deep.include({ key: 'funnelId', descriptions: ['Escolha o funil.'] });
    const badGroup = await get('/api/kanban?groupBy=cor', owner.token);
    expect(badGroup.body.errors[0]).to.deep.include({ key: 'groupBy', descriptions: ['Agrupamento inválido: use status, tag, group ou stage.'] });
    const badColumn = await get('/api/kanban/column?groupBy=status&column=tudo', owner.token);
    expect(badColumn.body.errors[0]).to.deep.include({ key: 'column', descriptions: ['Coluna inválida.'] });
    const unknownColumn = await get('/api/kanban/column?groupBy=status&column=none', owner.token);
    expect(unknownColumn.body.errors[0]).to.deep.include({ key: 'column', descriptions: ['Coluna não encontrada neste quadro.'] });
    const noTarget = await move(owner.token, { id: mine.conversationId, groupBy: 'status' });
    expect(noTarget.body.errors[0]).to.deep.include({ key: 'to', descriptions: ['Informe a coluna de destino.'] });
  });
});
