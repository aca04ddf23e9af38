import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, makeLabel } from '../inbox/factories';
import { DEFAULT_MENU_INVALID, newBot } from '../../api/bots/schema';

const enc = encodeURIComponent;
type Errors = { errors: { type: string; key?: string; descriptions: string[] }[] };
const keysOf = (body: Errors) => body.errors.map((e) => e.key).sort();

describe('bots resource /api/bot', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;
  let channelId: number;
  let groupId: number;
  let tagId: number;
  let hoursId: number;
  let foreign: { channelId: number; groupId: number; tagId: number; hoursId: number };

  before(async () => {
    api = await startTestApi();
    const { knex } = api.deps;
    ws = await makeWorkspace(knex);
    master = await makeOperator(knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    const other = await makeWorkspace(knex);
    stranger = await makeOperator(knex, api.config.jwtSecret, other, 10);
    channelId = (await makeChannel(knex, ws)).id;
    groupId = await makeGroup(knex, ws, [agent.id]);
    tagId = await makeLabel(knex, ws);
    [{ id: hoursId }] = await knex('business_hours').insert({ workspaceId: ws.id, name: unique('Comercial'), days: emptyWeek() }).returning('id');
    const [{ id: foreignHours }] = await knex('business_hours').insert({ workspaceId: other.id, name: unique('Outro'), days: emptyWeek() }).returning('id');
    foreign = { channelId: (await makeChannel(knex, other)).id, groupId: await makeGroup(knex, other), tagId: await makeLabel(knex, other), hoursId: foreignHours };
  });
  after(() => api.close());

  const save = (body: unknown, token = master.token) => api.request('POST', '/api/bot', { token, body });

  /** Menu with two options → a message path and a hand-off to a group, on the workspace's rows. */
  function menuBot(name = unique('Atendimento')) {
    const [start, sales, human] = [randomUUID(), randomUUID(), randomUUID()];
    return {
      ...newBot(),
      name,
      priority: 5,
      channels: [channelId],
      businessHours: [hoursId],
      userType: 'registered' as const,
      expire: { enabled: true, hours: 0, minutes: 30, message: 'Encerrado por inatividade.' },
      paths: [
        {
          guid: start,
          name: 'Início',
          actions: [
            { guid: randomUUID(), type: 'tag', tag: tagId, text: '' },
            { guid: randomUUID(), type: 'message', text: 'Olá! Bem-vindo.' },
            { guid: randomUUID(), type: 'menu', title: 'Menu', text: 'Escolha:', options: [{ guid: randomUUID(), name: 'Vendas', goTo: sales }, { guid: randomUUID(), name: 'Atendente', goTo: human }] },
          ],
        },
        { guid: sales, name: 'Vendas', actions: [{ guid: randomUUID(), type: 'message', text: 'Nossos planos…' }] },
        { guid: human, name: 'Humano', actions: [{ guid: randomUUID(), type: 'agent', assigneeType: 'group', assignee: groupId, text: 'Transferindo.' }] },
      ],
      layout: { [start]: { x: 0, y: 0 }, [sales]: { x: 320, y: -80 }, [human]: { x: 320, y: 120 } },
    };
  }

  it('creates a bot, answers the whole document with defaults filled, and reads it back', async () => {
    const body = menuBot();
    const res = await save(body);
    expect(res.status).to.equal(201);
    const bot = res.body.data;
    expect(bot).to.include({ name: body.name, isActive: false, priority: 5, userType: 'registered' });
    expect(bot.channels).to.deep.equal([channelId]);
    expect(bot.businessHours).to.deep.equal([hoursId]);
    expect(bot.expire).to.deep.equal(body.expire);
    expect(bot.layout).to.deep.equal(body.layout);
    expect(bot.paths[0].actions[2].textInvalid).to.equal(DEFAULT_MENU_INVALID);
    const row = await api.deps.knex('bots').where({ id: bot.id }).first();
    expect(row).to.include({ workspaceId: ws.id, name: body.name, priority: 5, userType: 'registered', isActive: false });
    expect(row.definition.paths).to.have.length(3);

    const got = await api.request('GET', `/api/bot/${bot.id}`, { token: master.token });
    expect(got.status).to.equal(200);
    expect(got.body.data).to.deep.equal(bot);
  });

  it('saves the default new bot (SPEC §9) as is', async () => {
    const res = await save(newBot());
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ name: 'Bot', priority: 0, isActive: false, userType: 'all' });
    expect(res.body.data.expire).to.deep.include({ hours: 0, minutes: 1 });
    expect(res.body.data.paths).to.deep.equal([]);
  });

  it('updates with POST {id} and with PUT of the whole bot (the list toggle), keeping the rest', async () => {
    const created = (await save(menuBot())).body.data;
    const toggled = await api.request('PUT', `/api/bot/${created.id}`, { token: master.token, body: { ...created, isActive: true } });
    expect(toggled.status).to.equal(200);
    expect(toggled.body.data.isActive).to.equal(true);
    expect(toggled.body.data.paths).to.deep.equal(created.paths);

    const { id, createdAt: _c, updatedAt: _u, ...doc } = toggled.body.data;
    const renamed = await save({ id, ...doc, name: 'Renomeado', paths: doc.paths.slice(0, 1).map((p: { actions: unknown[] }) => ({ ...p, actions: p.actions.slice(0, 2) })) });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.include({ id, name: 'Renomeado', isActive: true });
    expect(renamed.body.data.paths[0].actions).to.have.length(2);
    expect((await api.deps.knex('bots').where({ id }).first()).definition.paths).to.have.length(1);
  });

  it('lists in both dialects, highest priority first by default, with search and the active filter', async () => {
    const ws2 = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws2, 10);
    await save({ ...newBot(), name: 'Baixa', priority: 1 }, owner.token);
    await save({ ...newBot(), name: 'Alta', priority: 9, isActive: true }, owner.token);

    const spec = await api.request('GET', '/api/bot?limit=50', { token: owner.token });
    expect(spec.status).to.equal(200);
    expect(spec.body).to.include({ matchCount: 2, totalCount: 2 });
    expect(spec.body.data.map((b: { name: string }) => b.name)).to.deep.equal(['Alta', 'Baixa']);
    expect(spec.body.data[0].paths).to.deep.equal([]);

    const search = await api.request('GET', '/api/bot?query=baix', { token: owner.token });
    expect(search.body.data.map((b: { name: string }) => b.name)).to.deep.equal(['Baixa']);
    expect(search.body).to.include({ matchCount: 1, totalCount: 2 });

    const ra = await api.request('GET', `/api/bot?sort=${enc('["name","ASC"]')}&range=${enc('[0,0]')}&filter=${enc('{"isActive":true}')}`, { token: owner.token });
    expect(ra.body).to.be.an('array').with.length(1);
    expect(ra.body[0].name).to.equal('Alta');
    expect(ra.headers.get('content-range')).to.equal('bot 0-0/1');
  });

  it('validates with the editor schema: every failing field at once, on its exact path, in pt-BR', async () => {
    const bot = menuBot();
    const res = await save({
      ...bot,
      name: ' ',
      priority: 'alta',
      expire: { enabled: true, hours: 0, minutes: 0, message: '' },
      paths: [
        {
          ...bot.paths[0]!,
          actions: [
            { guid: randomUUID(), type: 'input', text: 'Seu código?', responseType: 'text', inputProp: 'custom', inputPropName: 'Código', inputPropCode: 'Codigo1' },
            { guid: randomUUID(), type: 'menu', options: [{ guid: randomUUID(), name: '' }] },
          ],
        },
        ...bot.paths.slice(1),
      ],
    });
    expect(res.status).to.equal(400);
    expect(res.body.errors.every((e: { type: string }) => e.type === 'ValidationError')).to.equal(true);
    expect(keysOf(res.body)).to.deep.equal(['expire.minutes', 'name', 'paths.0.actions.0.inputPropCode', 'paths.0.actions.1.options.0.name', 'priority'].sort());
    const desc = (key: string) => res.body.errors.find((e: { key: string }) => e.key === key).descriptions;
    expect(desc('name')).to.include('O nome é obrigatório.');
    expect(desc('paths.0.actions.0.inputPropCode')).to.include('O código deve ter apenas letras minúsculas.');
    expect(desc('paths.0.actions.1.options.0.name')).to.include('O nome da opção é obrigatório.');
    expect(desc('expire.minutes')).to.include('Com 0 horas, o mínimo é 1 minuto.');
  });

  it('refuses an action after a terminal one, a jump to a missing path and unknown fields', async () => {
    const bot = menuBot();
    const start = bot.paths[0]!;
    for (const terminal of ['agent', 'goto', 'path', 'resolve', 'menu'] as const) {
      const last = {
        agent: { guid: randomUUID(), type: 'agent', assigneeType: 'group', assignee: groupId },
        goto: { guid: randomUUID(), type: 'goto', goToPath: start.guid },
        path: { guid: randomUUID(), type: 'path', goToPath: start.guid },
        resolve: { guid: randomUUID(), type: 'resolve', text: 'Até logo' },
        menu: { guid: randomUUID(), type: 'menu', options: [{ guid: randomUUID(), name: 'Um' }] },
      }[terminal];
      const res = await save({ ...bot, paths: [{ ...start, actions: [last, { guid: randomUUID(), type: 'message', text: 'depois' }] }] });
      expect(res.status, terminal).to.equal(400);
      expect(keysOf(res.body), terminal).to.deep.equal(['paths.0.actions.0.type']);
      expect(res.body.errors[0].descriptions).to.include('Nenhuma ação pode vir depois desta.');
    }
    const missing = await save({ ...bot, paths: [{ ...start, actions: [{ guid: randomUUID(), type: 'goto', goToPath: randomUUID() }] }] });
    expect(keysOf(missing.body)).to.deep.equal(['paths.0.actions.0.goToPath']);
    expect(missing.body.errors[0].descriptions).to.include('Caminho não encontrado.');

    const extra = await save({ ...bot, workspaceId: 999 });
    expect(extra.status).to.equal(400);
    expect(keysOf(extra.body)).to.deep.equal(['workspaceId']);
  });

  it("rejects channels, schedules, tags, groups and agents the workspace does not have, each on its path, and writes nothing", async () => {
    const bot = menuBot();
    const name = unique('Referências');
    const res = await save({
      ...bot,
      name,
      channels: [channelId, foreign.channelId],
      businessHours: [foreign.hoursId],
      paths: [
        {
          ...bot.paths[0]!,
          actions: [
            { guid: randomUUID(), type: 'tag', tag: foreign.tagId, text: '' },
            { guid: randomUUID(), type: 'tag', tag: tagId, text: '' },
            { guid: randomUUID(), type: 'agent', assigneeType: 'agent', assignee: stranger.id },
          ],
        },
        { ...bot.paths[1]!, actions: [{ guid: randomUUID(), type: 'agent', assigneeType: 'group', assignee: foreign.groupId }] },
        { ...bot.paths[2]!, actions: [{ guid: randomUUID(), type: 'agent', assigneeType: 'agent', assignee: agent.id }] },
      ],
    });
    expect(res.status).to.equal(400);
    expect(keysOf(res.body)).to.deep.equal(['businessHours.0', 'channels.1', 'paths.0.actions.0.tag', 'paths.0.actions.2.assignee', 'paths.1.actions.0.assignee'].sort());
    const desc = (key: string) => res.body.errors.find((e: { key: string }) => e.key === key).descriptions;
    expect(desc('channels.1')).to.deep.equal(['Canal não encontrado.']);
    expect(desc('paths.0.actions.0.tag')).to.deep.equal(['Etiqueta não encontrada.']);
    expect(desc('paths.0.actions.2.assignee')).to.deep.equal(['Agente não encontrado.']);
    expect(desc('paths.1.actions.0.assignee')).to.deep.equal(['Grupo não encontrado.']);
    expect(await api.deps.knex('bots').where({ name }).first()).to.equal(undefined);

    const huge = await save({ ...bot, channels: [2 ** 40] });
    expect(huge.status).to.equal(400);
    expect(keysOf(huge.body)).to.deep.equal(['channels.0']);

    // A group id that is an agent id is still checked as a group: the assignee type decides the table.
    const swapped = await save({ ...bot, paths: [{ ...bot.paths[2]!, actions: [{ guid: randomUUID(), type: 'agent', assigneeType: 'agent', assignee: groupId + 100000 }] }] });
    expect(keysOf(swapped.body)).to.deep.equal(['paths.0.actions.0.assignee']);
  });

  it('rejects a reference on update too and keeps the stored bot', async () => {
    const created = (await save(menuBot())).body.data;
    const { id, createdAt: _c, updatedAt: _u, ...doc } = created;
    const res = await api.request('PUT', `/api/bot/${id}`, { token: master.token, body: { ...doc, channels: [foreign.channelId] } });
    expect(res.status).to.equal(400);
    expect(keysOf(res.body)).to.deep.equal(['channels.0']);
    expect((await api.deps.knex('bots').where({ id }).first()).definition.channels).to.deep.equal([channelId]);
  });

  it('deletes by id', async () => {
    const created = (await save(menuBot())).body.data;
    const res = await api.request('DELETE', `/api/bot/${created.id}`, { token: master.token });
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(created.id);
    expect(await api.deps.knex('bots').where({ id: created.id }).first()).to.equal(undefined);
    expect((await api.request('GET', `/api/bot/${created.id}`, { token: master.token })).status).to.equal(404);
  });

  it("answers 404 for another workspace's bot on read, save, toggle and delete, and changes nothing", async () => {
    const created = (await save(menuBot())).body.data;
    const { id, createdAt: _c, updatedAt: _u, ...doc } = created;
    const theirs = { ...doc, channels: [], businessHours: [], paths: [], layout: {} };
    expect((await api.request('GET', `/api/bot/${id}`, { token: stranger.token })).status).to.equal(404);
    expect((await save({ id, ...theirs, name: 'Roubado' }, stranger.token)).status).to.equal(404);
    expect((await api.request('PUT', `/api/bot/${id}`, { token: stranger.token, body: { ...theirs, isActive: true } })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/bot/${id}`, { token: stranger.token })).status).to.equal(404);
    const list = await api.request('GET', '/api/bot?limit=100', { token: stranger.token });
    expect(list.body.data.map((b: { id: number }) => b.id)).to.not.include(id);
    const row = await api.deps.knex('bots').where({ id }).first();
    expect(row).to.include({ name: created.name, isActive: false });
  });

  it('refuses level 3 (and 2) on every call with 403 (SPEC §6: bot is level 6+)', async () => {
    const created = (await save(menuBot())).body.data;
    const restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    for (const op of [agent, restricted]) {
      expect((await api.request('GET', '/api/bot', { token: op.token })).status).to.equal(403);
      expect((await api.request('GET', `/api/bot/${created.id}`, { token: op.token })).status).to.equal(403);
      expect((await save(newBot(), op.token)).status).to.equal(403);
      expect((await api.request('PUT', `/api/bot/${created.id}`, { token: op.token, body: { ...newBot(), isActive: true } })).status).to.equal(403);
      expect((await api.request('DELETE', `/api/bot/${created.id}`, { token: op.token })).status).to.equal(403);
    }
    expect((await api.deps.knex('bots').where({ id: created.id }).first()).isActive).to.equal(false);
    expect((await api.request('GET', '/api/bot')).status).to.equal(401);
  });
});

function emptyWeek() {
  const day = { active: false, hours: [] };
  return JSON.stringify({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day });
}
