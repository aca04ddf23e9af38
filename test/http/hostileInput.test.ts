import { expect } from 'chai';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { seedTenant, type Tenant } from '../security/tenant';
import { toAppError } from '../../api/http/errorMiddleware';

/**
 * Issue 10 item 10: input PostgreSQL cannot store (NUL in text that lands in jsonb), list filters shaped
 * unlike any filter (nested arrays, objects) and paths that do not decode are the client's fault: a 400 in
 * the error shape of DESIGN.md §3, never a 500.
 */
describe('http: hostile input answers 400 in the error shape, never 500', function () {
  this.timeout(60_000);
  let api: TestApi;
  let a: Tenant;

  before(async () => {
    api = await startTestApi();
    a = await seedTenant(api);
  });
  after(() => api.close());

  function expectValidation(res: ApiResponse, label: string, key?: string): void {
    expect(res.status, `${label} → ${JSON.stringify(res.body)}`).to.equal(400);
    expect(res.body.errors, label).to.be.an('array').with.length.greaterThan(0);
    expect(res.body.errors[0].type, label).to.equal('ValidationError');
    expect(res.body.errors[0].descriptions, label).to.be.an('array').with.length.greaterThan(0);
    if (key) expect(res.body.errors.map((e: { key?: string }) => e.key), label).to.include(key);
  }

  it('refuses a NUL in the widget visitor’s content (text and Delta) and name', async () => {
    const send = (body: Record<string, unknown>) => api.request('POST', '/api/v1/widget/messages', { body: { identifier: a.ids.channelIdentifier, type: 'text', ...body } });
    expectValidation(await send({ content: 'olá\u0000mundo' }), 'content text', 'content');
    expectValidation(await send({ content: [{ insert: 'olá\u0000\n' }] }), 'content delta', 'content.0.insert');
    expectValidation(await send({ content: 'olá', sender: 'Ana\u0000' }), 'sender', 'sender');
    // What is left of the NUL does not go through either: nothing was stored.
    expect(await api.deps.knex('messages').where({ workspaceId: a.ws.id }).whereRaw("text like '%mundo%'").first()).to.equal(undefined);
  });

  it('refuses a NUL in an agent’s message, note and reply', async () => {
    const send = (body: Record<string, unknown>) => api.request('POST', '/api/inbox/messages', { token: a.owner.token, body: { id: a.ids.conversation, ...body } });
    expectValidation(await send({ type: 0, content: [{ insert: 'resposta\u0000\n' }] }), 'message', 'content.0.insert');
    expectValidation(await send({ type: 2, content: [{ insert: 'nota\n', attributes: { bold: 'a\u0000' } }] }), 'note attributes', 'content.0.attributes.bold');
  });

  it('refuses a NUL in saved filters, in object keys and in query parameters', async () => {
    const seg = (filters: unknown) => api.request('POST', '/api/inbox/segments', { token: a.owner.token, body: { name: 'Filtro', filters } });
    expectValidation(await seg({ customerProps: { property: 'cidade', value: 'Re\u0000cife' } }), 'segment value', 'filters.customerProps.value');
    expectValidation(await seg({ customerProps: { property: 'ci\u0000dade', value: 'Recife' } }), 'segment property', 'filters.customerProps.property');
    expectValidation(await seg({ ['x\u0000']: 1 }), 'key', 'filters.x\u0000');
    expectValidation(await api.request('GET', `/api/inbox?${new URLSearchParams({ query: 'a\u0000b' })}`, { token: a.owner.token }), 'inbox search', 'query');
    expectValidation(await api.request('GET', `/api/label?${new URLSearchParams({ query: 'a\u0000b' })}`, { token: a.owner.token }), 'list search', 'query');
    expectValidation(await api.request('GET', `/api/bot?${new URLSearchParams({ filter: JSON.stringify({ userType: 'a\u0000' }) })}`, { token: a.owner.token }), 'filter value', 'filter');
  });

  it('maps PostgreSQL’s own refusal of a NUL in jsonb (22P05) or text (22021) to a 400, whatever slipped past validation', async () => {
    const caught: unknown[] = [];
    await api.deps.knex.raw('select ?::jsonb', ['"a\\u0000b"']).catch((err: unknown) => caught.push(err));
    await api.deps.knex.raw('select ?::text', ['a\u0000b']).catch((err: unknown) => caught.push(err));
    expect(caught.map((e) => (e as { code?: string }).code)).to.deep.equal(['22P05', '22021']);
    for (const err of caught) {
      const mapped = toAppError(err);
      expect(mapped?.status, String(err)).to.equal(400);
      expect(mapped?.entries[0].type).to.equal('ValidationError');
      expect(toAppError({ nativeError: err })?.status).to.equal(400);
    }
  });

  it('refuses react-admin filters that are not a scalar or a flat list of scalars', async () => {
    const cases: Array<[string, unknown]> = [
      ['/api/bot', { isActive: [[true, false]] }],
      ['/api/bot', { isActive: { not: true } }],
      ['/api/inbox/quick-phrases', { privacy: [['public'], 'private'] }],
      ['/api/assignment-rules', { isActive: [[true]] }],
      ['/api/assignment-rules', { isActive: [{ a: 1 }] }],
      ['/api/bot', { id: [[1, 2]] }],
    ];
    for (const [path, filter] of cases) {
      const res = await api.request('GET', `${path}?${new URLSearchParams({ filter: JSON.stringify(filter) })}`, { token: a.owner.token });
      expectValidation(res, `${path} ${JSON.stringify(filter)}`, 'filter');
    }
    // Scalars and flat lists keep working.
    for (const filter of [{ isActive: true }, { isActive: [true, false] }, { isActive: [] }]) {
      const res = await api.request('GET', `/api/bot?${new URLSearchParams({ filter: JSON.stringify(filter) })}`, { token: a.owner.token });
      expect(res.status, JSON.stringify(filter)).to.equal(200);
    }
  });

  it('answers a path that does not decode (malformed percent-encoding) with 400 outside and inside /api', async () => {
    for (const p of ['/%ff', '/%E0%A4%A', '/assets/%zz.js', '/inbox/%c3', '/api/label/%ff']) {
      const res = await api.request('GET', p, { token: a.owner.token });
      expect(res.status, `${p} → ${res.status} ${JSON.stringify(res.body)}`).to.be.oneOf([400, 404]);
      expect(res.body.errors[0].type).to.be.oneOf(['ValidationError', 'NotFoundError']);
      if (!p.startsWith('/api')) expectValidation(res, p);
    }
  });

  it('answers an id in the body that is neither a string nor a number (an object whose toString is null) with 404, never 500', async () => {
    // The fuzz's counterexample of stop 37: POST /contract {id: {toString: null}, code} made String(id) throw.
    for (const id of [{ toString: null }, { valueOf: null, toString: null }, ['1'], true]) {
      const res = await api.request('POST', '/api/contract', { token: a.owner.token, body: { id, code: 'ccb' } });
      expect(res.status, `${JSON.stringify(id)} → ${res.status} ${JSON.stringify(res.body)}`).to.equal(404);
      expect(res.body.errors[0].type).to.equal('NotFoundError');
    }
  });
});
