import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { makeChannel, makeGroup, makeLabel } from '../customers/rows';

describe('saved filters /api/inbox/segments', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let creator: TestOperator;
  let colleague: TestOperator;
  let master: TestOperator;
  let stranger: TestOperator;

  const make = (level: AccessLevelValue, workspace = ws) => makeOperator(api.deps.knex, api.config.jwtSecret, workspace, level);
  const save = (op: TestOperator, body: unknown) => api.request('POST', '/api/inbox/segments', { token: op.token, body });
  const segment = (over: Record<string, unknown> = {}) => ({ name: 'Vips', isPublic: true, inbox: 'workspace', filters: { open: true }, ...over });
  const errorKeys = (body: { errors: { key: string }[] }) => body.errors.map((e) => e.key).sort();

  before(async () => {
    api = await startTestApi();
    ws = await makeWorkspace(api.deps.knex);
    creator = await make(3);
    colleague = await make(3);
    master = await make(6);
    stranger = await make(10, await makeWorkspace(api.deps.knex));
  });
  after(() => api.close());

  it('creates a filter owned by the caller and answers the Segment shape', async () => {
    const channel = await makeChannel(api.deps.knex, ws.id);
    const res = await save(creator, segment({ icon: '#FF8800', filters: { my: true, channels: [channel.id], customerProps: { property: 'cidade', value: 'Recife' } } }));
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({ name: 'Vips', icon: '#FF8800', isPublic: true, subscribed: false, operatorId: creator.id, inbox: 'workspace' });
    expect(res.body.data.filters).to.deep.include({ my: true, channels: [channel.id], customerProps: { property: 'cidade', value: 'Recife' } });
    expect(Object.keys(res.body.data).sort()).to.deep.equal(['filters', 'icon', 'id', 'inbox', 'isPublic', 'name', 'operatorId', 'sort', 'subscribed']);
  });

  it('reports every bad field at once with pt-BR messages', async () => {
    const res = await save(creator, { name: '  ', icon: 'not an icon!', isPublic: 'yes', inbox: 'team', filters: { customerProps: { property: 'cidade' }, channels: ['x'] } });
    expect(res.status).to.equal(400);
    expect(errorKeys(res.body)).to.deep.equal(['filters.channels.0', 'filters.customerProps.value', 'icon', 'inbox', 'isPublic', 'name']);
    const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions]));
    expect(byKey.name).to.deep.equal(['O nome é obrigatório.']);
    expect(byKey['filters.customerProps.value']).to.deep.equal(['Informe o valor do atributo.']);
    expect((await save(creator, {})).body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['name']);
  });

  it('accepts an emoji or an icon class as icon, and refuses one longer than 60 characters', async () => {
    expect((await save(creator, segment({ icon: '⭐' }))).body.data.icon).to.equal('⭐');
    expect((await save(creator, segment({ icon: 'mdi mdi-star' }))).body.data.icon).to.equal('mdi mdi-star');
    expect((await save(creator, segment({ icon: 'a'.repeat(61) }))).status).to.equal(400);
  });

  it('refuses channel, group, agent and tag ids of another workspace with one field error each', async () => {
    const otherWs = stranger.workspaceId;
    const [channel, group, tag] = [await makeChannel(api.deps.knex, otherWs), await makeGroup(api.deps.knex, otherWs), await makeLabel(api.deps.knex, otherWs)];
    const mine = [await makeChannel(api.deps.knex, ws.id), await makeGroup(api.deps.knex, ws.id), await makeLabel(api.deps.knex, ws.id)];
    const res = await save(creator, segment({ filters: { channels: [mine[0].id, channel.id], groups: [group.id], agents: [stranger.id], tags: [tag.id] } }));
    expect(res.status).to.equal(400);
    expect(errorKeys(res.body)).to.deep.equal(['filters.agents', 'filters.channels', 'filters.groups', 'filters.tags']);
    expect(res.body.errors.find((e: { key: string }) => e.key === 'filters.channels').descriptions).to.deep.equal(['Canal não encontrado.']);
    const ok = await save(creator, segment({ filters: { channels: [mine[0].id], groups: [mine[1].id], agents: [colleague.id], tags: [mine[2].id] } }));
    expect(ok.status).to.equal(201);
  });

  it('lists own and public filters in sort order with the caller’s subscription, never others’ private ones', async () => {
    const w = await makeWorkspace(api.deps.knex);
    const [a, b] = [await make(3, w), await make(3, w)];
    const aPublic = (await save(a, segment({ name: 'A público' }))).body.data;
    const aPrivate = (await save(a, segment({ name: 'A privado', isPublic: false }))).body.data;
    const bPrivate = (await save(b, segment({ name: 'B privado', isPublic: false }))).body.data;
    await api.request('POST', `/api/inbox/segments/subscribe/${aPublic.id}`, { token: b.token });

    const forB = await api.request('GET', '/api/inbox/segments', { token: b.token });
    expect(forB.body.data.map((s: { name: string; subscribed: boolean }) => [s.name, s.subscribed])).to.deep.equal([
      ['A público', true],
      ['B privado', false],
    ]);
    const forA = await api.request('GET', '/api/inbox/segments', { token: a.token });
    expect(forA.body.data.map((s: { id: number }) => s.id)).to.deep.equal([aPublic.id, aPrivate.id]);

    const sorted = await api.request('PATCH', '/api/inbox/segments/sort', { token: a.token, body: { ids: [aPrivate.id, aPublic.id] } });
    expect(sorted.status).to.equal(200);
    expect(sorted.body.data).to.deep.equal({ ids: [aPrivate.id, aPublic.id] });
    const after = await api.request('GET', '/api/inbox/segments', { token: a.token });
    expect(after.body.data.map((s: { id: number }) => s.id)).to.deep.equal([aPrivate.id, aPublic.id]);

    // Someone else's private filter cannot be sorted: the whole call is a 404 and nothing moves.
    const refused = await api.request('PATCH', '/api/inbox/segments/sort', { token: a.token, body: { ids: [aPublic.id, bPrivate.id] } });
    expect(refused.status).to.equal(404);
    const again = await api.request('GET', '/api/inbox/segments', { token: a.token });
    expect(again.body.data.map((s: { id: number }) => s.id)).to.deep.equal([aPrivate.id, aPublic.id]);
    expect((await api.request('PATCH', '/api/inbox/segments/sort', { token: a.token, body: { ids: [] } })).status).to.equal(400);
  });

  describe('permission matrix (SPEC §6)', () => {
    type Who = 'owner' | 'other operator' | 'level 6';
    // private → only the creator sees it (404 for anyone else); public → 'me' inbox, owner or level 6+.
    const expected = (who: Who, inbox: 'me' | 'workspace', isPublic: boolean): number => {
      if (who === 'owner') return 200;
      if (!isPublic) return 404;
      if (who === 'level 6') return 200;
      return inbox === 'me' ? 200 : 403;
    };
    const caller = (who: Who) => (who === 'owner' ? creator : who === 'level 6' ? master : colleague);

    for (const who of ['owner', 'other operator', 'level 6'] as const) {
      for (const inbox of ['me', 'workspace'] as const) {
        for (const isPublic of [true, false]) {
          const status = expected(who, inbox, isPublic);
          const label = `${who} × inbox ${inbox} × ${isPublic ? 'public' : 'private'} → ${status}`;
          it(`edit and delete: ${label}`, async () => {
            const created = (await save(creator, segment({ name: 'Original', inbox, isPublic }))).body.data;
            const edit = await save(caller(who), { ...segment({ name: 'Editado', inbox, isPublic }), id: created.id });
            expect(edit.status, 'edit').to.equal(status);
            const row = await api.deps.knex('segments').where({ id: created.id }).first();
            expect(row.name).to.equal(status === 200 ? 'Editado' : 'Original');
            expect(row.operatorId, 'the owner never changes').to.equal(creator.id);

            const del = await api.request('DELETE', `/api/inbox/segments/${created.id}`, { token: caller(who).token });
            expect(del.status, 'delete').to.equal(status);
            const left = await api.deps.knex('segments').where({ id: created.id }).first();
            expect(Boolean(left)).to.equal(status !== 200);
            if (status === 403) expect(del.body.errors[0].type).to.equal('ForbiddenError');
          });
        }
      }
    }

    it('anyone may subscribe to a public filter; a private one is a 404 for everyone but its creator', async () => {
      const pub = (await save(creator, segment({ inbox: 'workspace', isPublic: true }))).body.data;
      const priv = (await save(creator, segment({ isPublic: false }))).body.data;
      for (const op of [colleague, master, creator]) {
        const res = await api.request('POST', `/api/inbox/segments/subscribe/${pub.id}`, { token: op.token });
        expect(res.status).to.equal(200);
        expect(res.body.data.subscribed).to.equal(true);
      }
      // Subscribing twice is harmless.
      expect((await api.request('POST', `/api/inbox/segments/subscribe/${pub.id}`, { token: colleague.token })).status).to.equal(200);
      expect((await api.deps.knex('segment_subscriptions').where({ segmentId: pub.id })).length).to.equal(3);

      const un = await api.request('POST', `/api/inbox/segments/unsubscribe/${pub.id}`, { token: colleague.token });
      expect(un.body.data.subscribed).to.equal(false);
      expect((await api.deps.knex('segment_subscriptions').where({ segmentId: pub.id, operatorId: colleague.id })).length).to.equal(0);

      for (const op of [colleague, master]) {
        expect((await api.request('POST', `/api/inbox/segments/subscribe/${priv.id}`, { token: op.token })).status).to.equal(404);
      }
      expect((await api.request('POST', `/api/inbox/segments/subscribe/${priv.id}`, { token: creator.token })).status).to.equal(200);
    });
  });

  it("answers 404 to another workspace's filter on every call and changes nothing", async () => {
    const mine = (await save(creator, segment({ name: 'Minha', isPublic: true }))).body.data;
    const calls: [string, string, unknown][] = [
      ['POST', '/api/inbox/segments', { ...segment({ name: 'Roubada' }), id: mine.id }],
      ['DELETE', `/api/inbox/segments/${mine.id}`, undefined],
      ['POST', `/api/inbox/segments/subscribe/${mine.id}`, undefined],
      ['POST', `/api/inbox/segments/unsubscribe/${mine.id}`, undefined],
      ['PATCH', '/api/inbox/segments/sort', { ids: [mine.id] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, { token: stranger.token, body });
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.errors[0].type).to.equal('NotFoundError');
    }
    const row = await api.deps.knex('segments').where({ id: mine.id }).first();
    expect(row).to.include({ name: 'Minha', sort: mine.sort });
    expect((await api.deps.knex('segment_subscriptions').where({ segmentId: mine.id })).length).to.equal(0);
    expect((await api.request('GET', '/api/inbox/segments', { token: stranger.token })).body.data.map((s: { id: number }) => s.id)).to.not.include(mine.id);
  });

  it('requires a token and answers 404 for ids that cannot exist', async () => {
    expect((await api.request('GET', '/api/inbox/segments')).status).to.equal(401);
    expect((await api.request('DELETE', '/api/inbox/segments/abc', { token: creator.token })).status).to.equal(404);
    expect((await api.request('POST', '/api/inbox/segments/subscribe/0', { token: creator.token })).status).to.equal(404);
  });
});
