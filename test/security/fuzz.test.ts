import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { createApp } from '../../api/app';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { bodies, MALFORMED_PATHS, NASTY, ODD_FILTER_VALUES, percentEncodedJunk, SQL_PAYLOADS, stringSpots, withNulAt, type FuzzBody } from './arbitraries';
import { CATALOG, FIXED_PARAMS } from './catalog';
import { appRoutes, fillPath, type AppRoute } from './routes';
import { changedTables, seedTenant, snapshotTenant, type Tenant } from './tenant';

/**
 * Property (issue 6 "Security"): whatever reaches any route of the app, the answer is never a 500, errors
 * keep the shape of DESIGN.md §3, no row of another workspace changes and none of its text comes back;
 * list, search and segment parameters carrying SQL injection or pg_sleep change nothing and answer fast.
 * Issue 10 item 10 added what slipped through before: a NUL in any string of a body (deep inside Delta
 * content too), filters shaped unlike a filter, and paths whose percent-encoding does not decode.
 * test/auth/fuzz.test.ts goes deeper (100 runs) on the account endpoints.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/**
 * A working pg_sleep(10) injection takes longer than this; a normal answer takes milliseconds, and a busy
 * machine (CI beside other work) must not fail a fast route.
 */
const SLOW_MS = 8000;

/** Routes whose fuzzing would only measure something else. */
const NOT_FUZZED: Record<string, string> = {
  'POST /api/operators/change-password': 'a right current password is never generated; test/auth/fuzz.test.ts covers the shape',
  'PUT /api/operators/change-password': 'same as POST',
};

function assertShape(res: ApiResponse, label: string): void {
  expect(res.status, `${label} → ${JSON.stringify(res.body)?.slice(0, 300)}`).to.be.below(500);
  if (res.status < 400) return;
  expect(res.body, label).to.be.an('object').with.property('errors').that.is.an('array').with.length.greaterThan(0);
  for (const e of res.body.errors) {
    expect(e.type, label).to.be.a('string');
    expect(e.descriptions, label).to.be.an('array');
  }
}

const PARAM_JUNK = ['0', '-1', '1e3', 'abc', '%00', '..', '9'.repeat(30), "1' OR '1'='1", '1;select pg_sleep(10)', '1 union select 1', ' 1', '0x10'];

describe('security: fuzz of every JSON endpoint and of list/search parameters', function () {
  this.timeout(900_000);
  let api: TestApi;
  let routes: AppRoute[];
  let a: Tenant;
  let b: Tenant;
  /** Written into the names of b's rows: no answer to a's members may ever contain it. */
  const MARKER = `SEGREDOB${randomBytes(4).toString('hex')}`;

  before(async () => {
    api = await startTestApi();
    routes = appRoutes(createApp(api.deps));
    a = await seedTenant(api);
    b = await seedTenant(api);
    const { knex } = api.deps;
    for (const table of ['labels', 'groups', 'customers', 'plugins', 'business_hours', 'assignment_rules', 'bots', 'segments', 'channels']) {
      await knex(table).where({ workspaceId: b.ws.id }).update({ name: knex.raw("? || ' ' || name", [MARKER]) });
    }
    await knex('quick_phrases').where({ workspaceId: b.ws.id }).update({ phrase: MARKER });
    await knex('customer_properties').where({ workspaceId: b.ws.id }).update({ value: MARKER });
    await knex('workspaces').where({ id: b.ws.id }).update({ name: MARKER });
    await knex('messages').where({ workspaceId: b.ws.id }).update({ text: MARKER, content: JSON.stringify([{ insert: `${MARKER}\n` }]) });
    const bOps = knex('workspace_members').where({ workspaceId: b.ws.id }).select('operator_id');
    await knex('operators').whereIn('id', bOps).update({ name: MARKER });
  });
  after(() => api.close());

  /**
   * The caller's session survives whatever the previous input did (level changes, deactivation): one
   * statement (it runs before each of some 4000 inputs), writing only what an input changed.
   */
  async function restore(): Promise<void> {
    await api.deps.rateLimiter.reset();
    await api.deps.knex.raw(
      `with op as (update operators set token_version = 0 where id = :operator and token_version <> 0)
       update workspace_members set token_version = 0, is_active = true, access_level = 10
        where operator_id = :operator and workspace_id = :workspace and (token_version, is_active, access_level) is distinct from (0, true, 10)`,
      { operator: a.owner.id, workspace: a.ws.id },
    );
  }

  function send(r: AppRoute, path: string, input: FuzzBody, token: string | undefined): Promise<ApiResponse> {
    const auth = token ? { token } : {};
    if (r.method === 'GET' || r.method === 'DELETE') return api.request(r.method, path, auth);
    return api.request(r.method, path, { ...auth, rawBody: input.kind === 'raw' ? input.value : (JSON.stringify(input.value) ?? '') });
  }

  it('never answers 500, never leaks or changes another workspace, on any route with any body or path parameter', async () => {
    const failures: string[] = [];
    const targets = routes.filter((r) => !NOT_FUZZED[r.key] && !CATALOG[r.key]?.multipart && (r.method !== 'GET' || r.params.length));
    expect(targets.length).to.be.greaterThan(60);
    for (const r of targets) {
      const spec = CATALOG[r.key];
      const token = spec?.access.kind === 'public' ? undefined : a.owner.token;
      const own: Record<string, string | number> = { ...FIXED_PARAMS, ...(spec?.params?.(a.ids) ?? {}) };
      const params = r.params.length
        ? fc.record(Object.fromEntries(r.params.map((p) => [p, fc.oneof(fc.constant(String(own[p] ?? '1')), fc.constantFrom(...PARAM_JUNK), fc.integer({ min: 1, max: 60 }).map(String))])))
        : fc.constant({});
      const before = await snapshotTenant(api, b.ws.id);
      try {
        await fc.assert(
          fc.asyncProperty(bodies(spec?.schema, spec?.body?.(a.ids)), params, async (input, values) => {
            await restore();
            let path = fillPath(r.path, values as Record<string, string>);
            const q = spec?.query?.(a.ids);
            if (q) path += `?${new URLSearchParams(q)}`;
            const res = await send(r, path, input, token);
            const label = `${r.key} ${path} ${JSON.stringify(input).slice(0, 200)}`;
            assertShape(res, label);
            expect(JSON.stringify(res.body) ?? '', `${label} answered another workspace's text`).not.to.include(MARKER);
          }),
          { numRuns: RUNS },
        );
      } catch (err) {
        failures.push(`${r.key}: ${(err as Error).message.split('\n').slice(0, 6).join(' | ')}`);
      }
      const changed = changedTables(before, await snapshotTenant(api, b.ws.id));
      if (changed.length) failures.push(`${r.key} changed another workspace: ${changed.join(', ')}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('answers every list and search with injected filter, sort, range and search parameters fast, changing nothing and leaking nothing', async () => {
    await restore();
    const failures: string[] = [];
    const lists = routes.filter((r) => r.method === 'GET' && !r.params.length && CATALOG[r.key]?.access.kind !== 'public');
    expect(lists.length).to.be.greaterThan(15);
    const payload = fc.constantFrom(...SQL_PAYLOADS);
    const field = fc.constantFrom('name', 'id', 'isActive', 'accessLevel', 'workspaceId', "name'; select pg_sleep(10); --", 'q', 'channelId', 'privacy', 'userType');
    const query = fc.oneof(
      fc.record({ q: payload }),
      fc.record({ query: payload }),
      fc.tuple(field, payload).map(([k, v]) => ({ filter: JSON.stringify({ [k]: v }) })),
      fc.tuple(field, payload).map(([k, v]) => ({ filter: JSON.stringify({ [k]: [v, 1] }) })),
      fc.tuple(field, fc.constantFrom(...ODD_FILTER_VALUES)).map(([k, v]) => ({ filter: JSON.stringify({ [k]: v }) })),
      fc.tuple(field, fc.constantFrom('ASC', 'DESC', "ASC; select pg_sleep(10)")).map(([k, o]) => ({ sort: JSON.stringify([k, o]) })),
      payload.map((v) => ({ range: `[0,"${v}"]` })),
      fc.tuple(field, payload).map(([k, v]) => ({ _sort: k, _order: v, _start: '0', _end: v })),
      payload.map((v) => ({ segmentId: v, cursor: v, limit: v, offset: v })),
      payload.map((v) => ({ id: v, property: v, value: v, before: v })),
      fc.dictionary(fc.constantFrom('q', 'filter', 'sort', 'range', 'limit', 'offset', 'query', 'segmentId', 'id'), fc.constantFrom(...NASTY).filter((s) => !s.includes('\ud800')), { maxKeys: 4 }),
    );
    const beforeA = await snapshotTenant(api, a.ws.id);
    const beforeB = await snapshotTenant(api, b.ws.id);
    for (const r of lists) {
      try {
        await fc.assert(
          fc.asyncProperty(query, async (q) => {
            await api.deps.rateLimiter.reset();
            const path = `${r.path}?${new URLSearchParams(q as Record<string, string>)}`;
            const started = performance.now();
            const res = await api.request('GET', path, { token: a.owner.token });
            const ms = performance.now() - started;
            assertShape(res, `${path}`);
            expect(ms, `${path} took ${Math.round(ms)} ms`).to.be.below(SLOW_MS);
            expect(JSON.stringify(res.body) ?? '', `${path} answered another workspace's text`).not.to.include(MARKER);
          }),
          { numRuns: RUNS },
        );
      } catch (err) {
        failures.push(`${r.key}: ${(err as Error).message.split('\n').slice(0, 6).join(' | ')}`);
      }
    }
    expect(failures).to.deep.equal([]);
    expect(changedTables(beforeA, await snapshotTenant(api, a.ws.id)), 'reads changed the own workspace').to.deep.equal([]);
    expect(changedTables(beforeB, await snapshotTenant(api, b.ws.id)), 'reads changed another workspace').to.deep.equal([]);
  });

  it('refuses a NUL in each string of every valid body, one string at a time, with a 400', async () => {
    const failures: string[] = [];
    const targets = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && !NOT_FUZZED[r.key] && CATALOG[r.key]?.body && !CATALOG[r.key]?.multipart);
    expect(targets.length).to.be.greaterThan(30);
    let sent = 0;
    for (const r of targets) {
      const spec = CATALOG[r.key];
      const valid = spec.body?.(a.ids) as Record<string, unknown>;
      const path = fillPath(r.path, { ...FIXED_PARAMS, ...(spec.params?.(a.ids) ?? {}) } as Record<string, string>);
      const token = spec.access.kind === 'public' ? undefined : a.owner.token;
      const before = await snapshotTenant(api, a.ws.id);
      for (const spot of stringSpots(valid)) {
        await restore();
        const body = withNulAt(valid, spot, 1);
        const res = await send(r, path, { kind: 'json', value: body }, token);
        sent++;
        const label = `${r.key} ${spot.kind} ${spot.path.join('.')}`;
        // 404: a route that is off (the broker hooks without an external broker) answers before reading a body.
        if (res.status !== 400 && res.status !== 404) failures.push(`${label} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        else assertShape(res, label);
      }
      const changed = changedTables(before, await snapshotTenant(api, a.ws.id)).filter((t) => t !== 'workspace_members' && t !== 'operators');
      if (changed.length) failures.push(`${r.key}: a refused body changed ${changed.join(', ')}`);
    }
    expect(sent).to.be.greaterThan(40);
    expect(failures).to.deep.equal([]);
  });

  it('refuses list filters that are not a value or a flat list of values on every list, with a 400', async () => {
    await restore();
    const failures: string[] = [];
    const lists = routes.filter((r) => r.method === 'GET' && !r.params.length && CATALOG[r.key]?.access.kind !== 'public');
    let readers = 0;
    for (const r of lists) {
      // A list that speaks react-admin's dialect (Content-Range) reads `filter`: an odd shape must be a 400 there.
      const readsFilter = (await api.request('GET', `${r.path}?filter=%7B%7D`, { token: a.owner.token })).headers.has('content-range');
      if (readsFilter) readers++;
      for (const field of ['isActive', 'privacy', 'userType', 'channelId', 'id']) {
        for (const value of ODD_FILTER_VALUES) {
          await api.deps.rateLimiter.reset();
          const path = `${r.path}?${new URLSearchParams({ filter: JSON.stringify({ [field]: value }) })}`;
          const res = await api.request('GET', path, { token: a.owner.token });
          const label = `${path} (${JSON.stringify({ [field]: value })})`;
          if (res.status >= 500) failures.push(`${label} → ${res.status}`);
          else if (readsFilter && res.status !== 400) failures.push(`${label} → ${res.status}`);
          else assertShape(res, label);
        }
      }
    }
    expect(readers, 'lists reading filter').to.be.greaterThan(8);
    expect(failures).to.deep.equal([]);
  });

  it('answers paths whose percent-encoding does not decode with a 4xx in the error shape, in and outside /api', async () => {
    const failures: string[] = [];
    const check = async (path: string) => {
      for (const token of [undefined, a.owner.token]) {
        const res = await api.request('GET', path, token ? { token } : {});
        if (res.status >= 500) failures.push(`${path} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        else if (res.status >= 400) assertShape(res, path);
      }
    };
    for (const path of MALFORMED_PATHS) await check(path);
    await fc.assert(
      fc.asyncProperty(percentEncodedJunk, async (path) => {
        await check(path);
      }),
      { numRuns: RUNS * 4 },
    );
    expect(failures).to.deep.equal([]);
    const ui = await api.request('GET', '/%ff');
    expect(ui.status).to.equal(400);
    expect(ui.body.errors[0].type).to.equal('ValidationError');
  });

  it('binds search text as data: a tag named like an injection is found literally, and only it', async () => {
    await restore();
    // Prefixed with this test's own tag: the first test's fuzzed bodies may have made a tag of the bare payload (a 409 here).
    const own = randomBytes(3).toString('hex');
    const names = [`${own}' OR '1'='1`, `${own}x'; SELECT pg_sleep(10); --`, `${own}%_\\`];
    for (const name of names) expect((await api.request('POST', '/api/label', { token: a.owner.token, body: { name, color: '#D1FADF', textColor: '#027A48' } })).status).to.equal(201);
    for (const name of names) {
      const started = performance.now();
      const res = await api.request('GET', `/api/label?${new URLSearchParams({ query: name })}`, { token: a.owner.token });
      expect(performance.now() - started).to.be.below(SLOW_MS);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((l: { name: string }) => l.name)).to.deep.equal([name]);
    }
  });

  it('keeps inbox search and saved segments with injected text inside the workspace, fast and unchanged', async () => {
    await restore();
    const own = (await api.deps.knex('customer_platforms').where({ workspaceId: a.ws.id }).select('id')).map((r: { id: number }) => r.id);
    const beforeB = await snapshotTenant(api, b.ws.id);
    for (const payload of [...SQL_PAYLOADS, MARKER]) {
      await api.deps.rateLimiter.reset();
      let started = performance.now();
      const search = await api.request('GET', `/api/inbox?${new URLSearchParams({ query: payload })}`, { token: a.owner.token });
      expect(performance.now() - started, `search ${payload}`).to.be.below(SLOW_MS);
      expect(search.status, JSON.stringify(search.body)).to.equal(200);
      for (const c of search.body.data) expect(own, `search ${payload}`).to.include(c.id);

      const seg = await api.request('POST', '/api/inbox/segments', { token: a.owner.token, body: { name: 'Injeção', filters: { customerProps: { property: payload.slice(0, 60), value: payload } } } });
      expect(seg.status, JSON.stringify(seg.body)).to.be.oneOf([201, 400]);
      if (seg.status !== 201) continue;
      started = performance.now();
      const page = await api.request('GET', `/api/inbox?segmentId=${seg.body.data.id}`, { token: a.owner.token });
      expect(performance.now() - started, `segment ${payload}`).to.be.below(SLOW_MS);
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      for (const c of page.body.data) expect(own).to.include(c.id);
      const counter = await api.request('POST', '/api/inbox/counter', { token: a.owner.token });
      expect(counter.status).to.equal(200);
      expect(JSON.stringify(counter.body)).not.to.include(MARKER);
    }
    expect(changedTables(beforeB, await snapshotTenant(api, b.ws.id))).to.deep.equal([]);
  });
});
