import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup } from '../inbox/factories';
import { parseBotFile } from '../../ui/src/settings/bot/importExport';

type Errors = { errors: { type: string; key?: string; descriptions: string[] }[] };
const keysOf = (body: Errors) => body.errors.map((e) => e.key).sort();

/**
 * A bot written from SPEC §3 alone: guids the author chose, menu options as `{name, goTo}`, an input action
 * with SPEC's fields only, no priority, expire or layout (SPEC §9 defaults).
 */
function specBot(channelId: number, groupId: number) {
  return {
    name: unique('Atendimento da padaria'),
    isActive: true,
    channels: [channelId],
    businessHours: [],
    userType: 'all',
    paths: [
      {
        guid: 'inicio',
        name: 'Início',
        actions: [
          { guid: 'boas-vindas', type: 'message', text: 'Olá! Aqui é a Padaria Pão Quente.' },
          { guid: 'email', type: 'input', text: 'Qual o seu e-mail?', inputProp: 'email', inputPropName: '', inputPropCode: '', inputInvalid: '' },
          {
            guid: 'menu_principal',
            type: 'menu',
            title: 'Como podemos ajudar?',
            text: 'Responda com o número:',
            textInvalid: '',
            options: [
              { name: 'Encomendas', goTo: 'encomendas' },
              { name: 'Falar com alguém', goTo: 'humano' },
              { name: 'Só isso, obrigado', goTo: 'fim' },
            ],
          },
        ],
      },
      { guid: 'encomendas', name: 'Encomendas', actions: [{ guid: 'enc.1', type: 'message', text: 'Encomendas com 24 h de antecedência.' }, { guid: 'enc.2', type: 'goto', goToPath: 'humano' }] },
      { guid: 'humano', name: 'Humano', actions: [{ guid: 'h1', type: 'agent', assigneeType: 'group', assignee: groupId, text: 'Chamando a equipe.' }] },
      { guid: 'fim', name: 'Fim', actions: [{ guid: 'f1', type: 'resolve', text: 'Até logo!' }] },
    ],
  };
}

type MenuOut = { guid: string; options: { guid: string; name: string; goTo: string | null }[] };

describe('bots shaped as SPEC §3 describes them (/api/bot and the editor import)', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let master: TestOperator;
  let channelId: number;
  let groupId: number;

  before(async () => {
    api = await startTestApi();
    ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    channelId = (await makeChannel(api.deps.knex, ws)).id;
    groupId = await makeGroup(api.deps.knex, ws);
  });
  after(() => api.close());

  const save = (body: unknown) => api.request('POST', '/api/bot', { token: master.token, body });
  const put = (id: number, body: unknown) => api.request('PUT', `/api/bot/${id}`, { token: master.token, body });
  const menuOf = (bot: { paths: { actions: unknown[] }[] }) => bot.paths[0]!.actions[2] as MenuOut;

  it('accepts options without a guid and any guid strings for paths and actions, keeping them as given', async () => {
    const body = specBot(channelId, groupId);
    const res = await save(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const bot = res.body.data;
    expect(bot).to.include({ priority: 0, isActive: true });
    expect(bot.expire).to.deep.equal({ enabled: false, hours: 0, minutes: 1, message: '' });
    expect(bot.paths.map((p: { guid: string }) => p.guid)).to.deep.equal(['inicio', 'encomendas', 'humano', 'fim']);
    expect(bot.paths[0].actions.map((a: { guid: string }) => a.guid)).to.deep.equal(['boas-vindas', 'email', 'menu_principal']);
    // An input without SPEC's missing response type checks by where the reply goes.
    expect(bot.paths[0].actions[1].responseType).to.equal('email');
    const menu = menuOf(bot);
    expect(menu.options.map((o) => o.goTo)).to.deep.equal(['encomendas', 'humano', 'fim']);
    expect(menu.options.map((o) => o.guid)).to.deep.equal(['menu_principal-1', 'menu_principal-2', 'menu_principal-3']);
    expect((await api.deps.knex('bots').where({ id: bot.id }).first()).definition.paths[0].actions[2].options[1].guid).to.equal('menu_principal-2');
    const got = await api.request('GET', `/api/bot/${bot.id}`, { token: master.token });
    expect(got.body.data).to.deep.equal(bot);
  });

  it('keeps option guids across saves: sent back, sent again without them, reordered, or beside a new option', async () => {
    const body = specBot(channelId, groupId);
    const created = (await save(body)).body.data;
    const first = menuOf(created).options.map((o) => o.guid);

    // The editor's save: the whole answer back.
    const { id, createdAt: _c, updatedAt: _u, ...doc } = created;
    const again = await put(id, doc);
    expect(again.status).to.equal(200);
    expect(menuOf(again.body.data).options.map((o) => o.guid)).to.deep.equal(first);

    // The same hand-written file saved a second time: the same guids, not new ones.
    const resent = await put(id, body);
    expect(resent.status).to.equal(200);
    expect(menuOf(resent.body.data).options.map((o) => o.guid)).to.deep.equal(first);

    // An option keeps its guid wherever it moves; a new option without one gets a guid no other option has.
    const options = menuOf(resent.body.data).options;
    const moved = structuredClone(body);
    (moved.paths[0]!.actions[2] as unknown as { options: unknown[] }).options = [options[2], { name: 'Novidades', goTo: 'encomendas' }, options[0], options[1]];
    const reordered = await put(id, moved);
    expect(reordered.status, JSON.stringify(reordered.body)).to.equal(200);
    const after = menuOf(reordered.body.data).options;
    expect([after[0]!.guid, after[2]!.guid, after[3]!.guid]).to.deep.equal([first[2], first[0], first[1]]);
    expect(after[1]!.guid).to.match(/^menu_principal-2\.\d+$/);
    expect(new Set(after.map((o) => o.guid)).size).to.equal(4);
  });

  it('answers field errors for duplicate guids, jumps to missing paths and guids that are not identifiers, all at once', async () => {
    const body = specBot(channelId, groupId);
    body.paths[3]!.guid = 'humano';
    const actions = body.paths[0]!.actions;
    actions[1]!.guid = 'boas-vindas';
    const menu = actions[2] as unknown as { options: { guid?: string; name: string; goTo: string }[] };
    menu.options[0]!.guid = 'um';
    menu.options[1]!.guid = 'um';
    menu.options[2]!.goTo = 'nao-existe';
    body.paths[1]!.actions[1] = { guid: 'enc 2', type: 'goto', goToPath: 'sumiu' };
    body.paths[2]!.actions[0]!.guid = 'x'.repeat(65);
    const res = await save(body);
    expect(res.status).to.equal(400);
    expect(keysOf(res.body)).to.deep.equal(
      [
        'paths.0.actions.1.guid',
        'paths.0.actions.2.options.1.guid',
        'paths.0.actions.2.options.2.goTo',
        'paths.1.actions.1.guid',
        'paths.1.actions.1.goToPath',
        'paths.2.actions.0.guid',
        'paths.3.guid',
      ].sort(),
    );
    const desc = (key: string) => res.body.errors.find((e: { key: string }) => e.key === key).descriptions;
    expect(desc('paths.3.guid')).to.deep.equal(['Caminho duplicado.']);
    expect(desc('paths.0.actions.1.guid')).to.deep.equal(['Ação duplicada.']);
    expect(desc('paths.0.actions.2.options.1.guid')).to.deep.equal(['Opção duplicada.']);
    expect(desc('paths.0.actions.2.options.2.goTo')).to.deep.equal(['Caminho não encontrado.']);
    expect(desc('paths.1.actions.1.goToPath')).to.deep.equal(['Caminho não encontrado.']);
    expect(desc('paths.1.actions.1.guid')[0]).to.match(/^Identificador inválido/);
    expect(desc('paths.2.actions.0.guid')[0]).to.match(/^Identificador inválido/);
  });

  it("the editor's 'Importar' takes the same bot bare, or as an API answer, with option guids filled", () => {
    const body = specBot(channelId, groupId);
    for (const file of [body, { ...body, id: 12, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }, { data: { ...body, id: 12 } }]) {
      const doc = parseBotFile(JSON.stringify(file));
      expect(doc, JSON.stringify(file).slice(0, 40)).to.not.equal(null);
      expect(doc!.paths.map((p) => p.guid)).to.deep.equal(['inicio', 'encomendas', 'humano', 'fim']);
      expect(menuOf(doc!).options.map((o) => o.guid)).to.deep.equal(['menu_principal-1', 'menu_principal-2', 'menu_principal-3']);
      expect(doc!.layout).to.deep.equal({});
    }
    expect(parseBotFile(JSON.stringify({ ...body, workspace: 3 }))).to.equal(null);
  });
});
