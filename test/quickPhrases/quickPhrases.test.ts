import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { normalizeQuickPhraseTag, QuickPhraseSchema } from '../../api/quickPhrases/schema';

describe('quick phrase tag normalisation (SPEC §5)', () => {
  const cases: [string, string][] = [
    ['//a b/c', '/a_bc'],
    ['bomdia', '/bomdia'],
    ['/bomdia', '/bomdia'],
    ['  /bom dia  ', '/bom_dia'],
    ['a\tb', '/a_b'],
    ['///', '/'],
    ['a/b/c/', '/abc'],
  ];
  for (const [raw, normalised] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(normalised)}`, () => {
      expect(normalizeQuickPhraseTag(raw)).to.equal(normalised);
    });
  }

  it('is applied by the shared schema, so the form shows what the API stores', () => {
    const parsed = QuickPhraseSchema.parse({ phrase: 'Olá', tag: '//a b/c', privacy: 'public' });
    expect(parsed).to.deep.equal({ phrase: 'Olá', tag: '/a_bc', privacy: 'public', hotkey: null });
  });

  it('refuses a tag that is empty once normalised', () => {
    const res = QuickPhraseSchema.safeParse({ phrase: 'Olá', tag: ' // ', privacy: 'public' });
    expect(res.success).to.equal(false);
    expect(res.error!.issues.map((i) => [i.path.join('.'), i.message])).to.deep.equal([['tag', 'A tag é obrigatória.']]);
  });
});

describe('quick phrases resource /api/inbox/quick-phrases', () => {
  let api: TestApi;
  let owner: TestOperator;
  let colleague: TestOperator;
  let restricted: TestOperator;
  let stranger: TestOperator;

  const create = (op: TestOperator, body: Record<string, unknown>) => api.request('POST', '/api/inbox/quick-phrases', { token: op.token, body });
  const listTags = async (op: TestOperator) =>
    (await api.request('GET', '/api/inbox/quick-phrases?limit=100', { token: op.token })).body.data.map((p: { tag: string }) => p.tag);

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    colleague = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  it('creates a phrase at every level, normalises its tag and records the creator as owner', async () => {
    const res = await create(restricted, { phrase: 'Bom dia! Como posso ajudar?', tag: '//bom dia/', privacy: 'public', hotkey: 'ctrl+1', operatorId: owner.id, workspaceId: stranger.workspaceId });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({ phrase: 'Bom dia! Como posso ajudar?', tag: '/bom_dia', privacy: 'public', hotkey: 'ctrl+1', operatorId: restricted.id });
    const row = await api.deps.knex('quick_phrases').where({ id: res.body.data.id }).first();
    expect(row).to.include({ workspaceId: restricted.workspaceId, operatorId: restricted.id, tag: '/bom_dia' });
  });

  it('reports every missing or bad field at once with pt-BR messages', async () => {
    const empty = await create(owner, {});
    expect(empty.status).to.equal(400);
    const byKey = Object.fromEntries(empty.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions]));
    expect(byKey).to.deep.equal({ phrase: ['A frase é obrigatória.'], tag: ['A tag é obrigatória.'], privacy: ['A visibilidade é obrigatória.'] });

    const bad = await create(owner, { phrase: 'x'.repeat(2001), tag: '/' + 'a'.repeat(60), privacy: 'secret', hotkey: 'x'.repeat(21) });
    expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['hotkey', 'phrase', 'privacy', 'tag']);
    expect((await create(owner, { phrase: '   ', tag: '/ok', privacy: 'public' })).body.errors[0].key).to.equal('phrase');
    expect((await create(owner, { phrase: 'ok', tag: 5, privacy: 'public' })).body.errors[0].key).to.equal('tag');
  });

  it('shows and lets edit a private phrase only to its owner; public ones to everyone', async () => {
    const priv = (await create(owner, { phrase: 'Só minha', tag: '/minha', privacy: 'private' })).body.data;
    const pub = (await create(owner, { phrase: 'De todos', tag: '/todos', privacy: 'public' })).body.data;

    expect(await listTags(owner)).to.include.members(['/minha', '/todos']);
    for (const op of [colleague, restricted]) {
      expect(await listTags(op)).to.include('/todos').and.not.include('/minha');
      for (const [method, path, body] of [
        ['GET', `/api/inbox/quick-phrases/${priv.id}`, undefined],
        ['PUT', `/api/inbox/quick-phrases/${priv.id}`, { phrase: 'invadida' }],
        ['POST', '/api/inbox/quick-phrases', { id: priv.id, phrase: 'invadida' }],
        ['DELETE', `/api/inbox/quick-phrases/${priv.id}`, undefined],
      ] as const) {
        expect((await api.request(method, path, { token: op.token, body })).status, `${method} ${path}`).to.equal(404);
      }
    }
    const row = await api.deps.knex('quick_phrases').where({ id: priv.id }).first();
    expect(row.phrase).to.equal('Só minha');

    const edited = await api.request('PUT', `/api/inbox/quick-phrases/${pub.id}`, { token: restricted.token, body: { ...pub, phrase: 'De todos, editada', tag: 'todos agora' } });
    expect(edited.status).to.equal(200);
    expect(edited.body.data).to.include({ phrase: 'De todos, editada', tag: '/todos_agora', operatorId: owner.id });

    const mine = await api.request('POST', '/api/inbox/quick-phrases', { token: owner.token, body: { id: priv.id, phrase: 'Só minha, editada' } });
    expect(mine.status).to.equal(200);
    expect(mine.body.data.phrase).to.equal('Só minha, editada');
  });

  it('speaks both list dialects and filters by privacy', async () => {
    const w = await makeWorkspace(api.deps.knex);
    const a = await makeOperator(api.deps.knex, api.config.jwtSecret, w, 3);
    await create(a, { phrase: 'Um', tag: '/um', privacy: 'public' });
    await create(a, { phrase: 'Dois', tag: '/dois', privacy: 'private' });
    const spec = await api.request('GET', '/api/inbox/quick-phrases?query=dois', { token: a.token });
    expect(spec.body).to.deep.include({ matchCount: 1, totalCount: 2 });
    const ra = await api.request('GET', `/api/inbox/quick-phrases?sort=${encodeURIComponent('["tag","ASC"]')}&range=${encodeURIComponent('[0,9]')}&filter=${encodeURIComponent('{"privacy":"private"}')}`, { token: a.token });
    expect(ra.body.map((p: { tag: string }) => p.tag)).to.deep.equal(['/dois']);
    expect(ra.headers.get('content-range')).to.equal('quick-phrases 0-0/1');
  });

  it("answers 404 for another workspace's phrase and changes nothing", async () => {
    const pub = (await create(owner, { phrase: 'Pública', tag: '/publica', privacy: 'public' })).body.data;
    for (const [method, body] of [['GET', undefined], ['PUT', { phrase: 'x' }], ['DELETE', undefined]] as const) {
      expect((await api.request(method, `/api/inbox/quick-phrases/${pub.id}`, { token: stranger.token, body })).status).to.equal(404);
    }
    expect((await api.request('PATCH', '/api/inbox/quick-phrases/sort', { token: stranger.token, body: { ids: [pub.id] } })).status).to.equal(404);
    expect((await api.deps.knex('quick_phrases').where({ id: pub.id }).first()).phrase).to.equal('Pública');
    expect(await listTags(stranger)).to.not.include('/publica');
  });

  it('deletes a phrase for its owner', async () => {
    const p = (await create(owner, { phrase: 'Tchau', tag: '/tchau', privacy: 'private' })).body.data;
    expect((await api.request('DELETE', `/api/inbox/quick-phrases/${p.id}`, { token: owner.token })).status).to.equal(200);
    expect(await api.deps.knex('quick_phrases').where({ id: p.id }).first()).to.equal(undefined);
  });
});
