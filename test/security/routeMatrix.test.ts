import { expect } from 'chai';
import { createApp } from '../../api/app';
import type { AccessLevelValue } from '../../api/policy/levels';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { CATALOG, FIXED_PARAMS, type RouteSpec } from './catalog';
import { appRoutes, fillPath, type AppRoute } from './routes';
import { changedTables, othersChanged, seedTenant, snapshotOthers, snapshotTenant, unwatchOthers, watchOthers, type Tenant, type TenantIds } from './tenant';

/**
 * The cross-tenant and permission matrix (issue 6 "Security", issue 4 "Permissions"), generated from the
 * routers mounted on the app: a new route is swept with every foreign id before anyone writes a line for
 * it, and fails the catalog test until its SPEC §6 access is written down in catalog.ts.
 */

const LEVELS: AccessLevelValue[] = [2, 3, 6, 9];

function call(api: TestApi, route: AppRoute, spec: RouteSpec | undefined, ids: TenantIds, token: string, extra: { params?: Record<string, string | number>; body?: unknown } = {}): Promise<ApiResponse> {
  const params = { ...FIXED_PARAMS, ...(spec?.params?.(ids) ?? {}), ...(extra.params ?? {}) };
  let path = fillPath(route.path, params);
  const q = spec?.query?.(ids);
  if (q) path += `?${new URLSearchParams(q)}`;
  const body = extra.body ?? spec?.body?.(ids);
  return api.request(route.method, path, { token, ...(body !== undefined && route.method !== 'GET' && route.method !== 'DELETE' ? { body } : {}) });
}

const ok = (res: ApiResponse, spec: RouteSpec) => (res.status >= 200 && res.status < 300) || (spec.okStatuses ?? []).includes(res.status);
const show = (res: ApiResponse) => `${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;

describe('security: route matrix (every route of the app × tenants × levels)', function () {
  this.timeout(600_000);
  let api: TestApi;
  let routes: AppRoute[];
  let a: Tenant;
  let b: Tenant;
  /** The owner of an empty workspace: any row of another workspace it reaches is a leak. */
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    routes = appRoutes(createApp(api.deps));
    a = await seedTenant(api);
    b = await seedTenant(api);
    const ws = await makeWorkspace(api.deps.knex);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    await watchOthers(api);
  });
  after(async () => {
    if (!api) return;
    await unwatchOthers(api);
    await api.close();
  });
  beforeEach(() => api.deps.rateLimiter.reset());

  const specOf = (r: AppRoute) => CATALOG[r.key];
  const authed = () => routes.filter((r) => specOf(r)?.access.kind !== 'public');

  /** A fresh row for a consuming call (delete), made by the tenant's owner through the route that creates it. */
  async function fresh(t: Tenant, spec: RouteSpec): Promise<TenantIds> {
    if (!spec.freshFrom) return t.ids;
    const creator = CATALOG[spec.freshFrom];
    const [method, path] = spec.freshFrom.split(' ');
    const res = await api.request(method, path, { token: t.owner.token, body: creator.body?.(t.ids) });
    expect(res.status, `${spec.freshFrom}: ${show(res)}`).to.be.oneOf([200, 201]);
    const newId = res.body.data.id as number;
    const idKey = Object.keys(t.ids).find((k) => {
      const probe = spec.params?.({ ...t.ids, [k]: -1 } as TenantIds);
      return probe && Object.values(probe).includes(-1);
    }) as keyof TenantIds;
    return { ...t.ids, [idKey]: newId };
  }

  it('finds the routes of every area through the routers (sanity of the walk)', () => {
    const keys = routes.map((r) => r.key);
    for (const k of ['GET /api/label/:id', 'PUT /api/workspace', 'POST /api/inbox/:segment/:id', 'GET /api/v1/widget/config', 'POST /api/webhook/deliveries/:id/replay']) {
      expect(keys).to.include(k);
    }
    expect(routes.length).to.be.greaterThan(100);
  });

  it('knows the SPEC §6 access of every route of the app (a new route must be added to test/security/catalog.ts)', () => {
    expect(routes.filter((r) => !specOf(r)).map((r) => r.key)).to.deep.equal([]);
  });

  it('answers 401 without a token on every route that is not public, and changes nothing', async () => {
    const before = await snapshotTenant(api, a.ws.id);
    const failures: string[] = [];
    for (const r of authed()) {
      const res = await api.request(r.method, fillPath(r.path, { ...FIXED_PARAMS, ...Object.fromEntries(r.params.map((p) => [p, FIXED_PARAMS[p] ?? '1'])) }), r.method === 'GET' ? {} : { body: {} });
      if (res.status !== 401) failures.push(`${r.key} → ${show(res)}`);
    }
    expect(failures).to.deep.equal([]);
    expect(changedTables(before, await snapshotTenant(api, a.ws.id))).to.deep.equal([]);
  });

  it('answers 404 to every id of another workspace on every route with a parameter, and changes no row of it', async () => {
    const pool = [...new Set(Object.values(b.ids))];
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.params.some((p) => !(p in FIXED_PARAMS)))) {
      const spec = specOf(r);
      if (spec?.skip?.startsWith('public by key')) continue;
      const before = await snapshotOthers(api, stranger.workspaceId);
      for (const value of pool) {
        const params = Object.fromEntries(r.params.map((p) => [p, FIXED_PARAMS[p] ?? value]));
        const res = await call(api, r, spec, b.ids, stranger.token, { params, body: spec?.body?.(b.ids) ?? {} });
        if (res.status !== 404) failures.push(`${r.key} with ${JSON.stringify(params)} → ${show(res)}`);
      }
      const changed = await othersChanged(api, before);
      if (changed.length) failures.push(`${r.key} changed ${changed.join(', ')}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('never lets an `id` of another workspace in a body (SPEC "save": a body with an id updates) reach that row', async () => {
    const pool = [...new Set(Object.values(b.ids).filter((v): v is number => typeof v === 'number'))];
    const failures: string[] = [];
    for (const r of authed().filter((x) => x.method !== 'GET' && x.method !== 'DELETE' && specOf(x)?.body && !specOf(x).multipart)) {
      const spec = specOf(r);
      const before = await snapshotOthers(api, stranger.workspaceId);
      for (const id of pool) {
        const res = await call(api, r, spec, b.ids, stranger.token, { params: Object.fromEntries(r.params.map((p) => [p, FIXED_PARAMS[p] ?? id])), body: { ...spec.body!(b.ids), id } });
        if (res.status >= 500) failures.push(`${r.key} id ${id} → ${show(res)}`);
        if (JSON.stringify(res.body ?? '').includes(`"workspaceId":${b.ws.id}`)) failures.push(`${r.key} id ${id} answered a row of the other workspace`);
      }
      const changed = await othersChanged(api, before);
      if (changed.length) failures.push(`${r.key} changed ${changed.join(', ')}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it("answers each route's own rows for its own workspace (so the foreign-id runs use the right kinds of ids)", async () => {
    const failures: string[] = [];
    const own = authed().filter((r) => specOf(r) && !specOf(r).skip && !specOf(r).multipart && (r.params.length || specOf(r).refs));
    // Deletions last: they consume their fresh row, nothing else.
    own.sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    for (const r of own) {
      const spec = specOf(r);
      const res = await call(api, r, spec, await fresh(a, spec), a.owner.token);
      if (!ok(res, spec)) failures.push(`${r.key} → ${show(res)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it("answers 404 to a member naming another workspace's rows of the right kind, in the path or in the body, and changes nothing there", async () => {
    const failures: string[] = [];
    for (const r of authed().filter((x) => specOf(x) && !specOf(x).multipart && (x.params.length || specOf(x).refs))) {
      const spec = specOf(r);
      const before = await snapshotOthers(api, a.ws.id);
      // Path of the other tenant with an otherwise valid body of one's own, or a body naming the other tenant.
      const res = r.params.length ? await call(api, r, spec, a.ids, a.owner.token, { params: spec.params?.(b.ids) }) : await call(api, r, spec, b.ids, a.owner.token);
      const accepted = r.params.length ? [404] : [400, 404];
      if (!accepted.includes(res.status)) failures.push(`${r.key} → ${show(res)}`);
      const changed = await othersChanged(api, before);
      if (changed.length) failures.push(`${r.key} changed ${changed.join(', ')}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('rejects or ignores workspaceId, accessLevel and operatorId of other tenants in every JSON body', async () => {
    const actor = a.byLevel[9];
    const failures: string[] = [];
    for (const r of authed().filter((x) => specOf(x)?.body && !specOf(x).skip && x.method !== 'GET' && x.method !== 'DELETE')) {
      const spec = specOf(r);
      const before = await snapshotOthers(api, a.ws.id);
      const body = { ...spec.body!(a.ids), workspaceId: b.ws.id, accessLevel: 10, operatorId: b.owner.id };
      const res = await call(api, r, spec, a.ids, actor.token, { body });
      if (res.status >= 500 || [401, 403, 404].includes(res.status)) failures.push(`${r.key} → ${show(res)}`);
      const data = res.body?.data;
      if (res.status < 300 && data && typeof data === 'object' && 'workspaceId' in data && data.workspaceId !== a.ws.id) failures.push(`${r.key} answered workspaceId ${data.workspaceId}`);
      const changed = await othersChanged(api, before);
      if (changed.length) failures.push(`${r.key} changed ${changed.join(', ')}`);
      const membership = await api.deps.knex('workspace_members').where({ operatorId: actor.id }).select('workspace_id', 'access_level', 'is_active');
      if (membership.length !== 1 || membership[0].accessLevel !== 9 || membership[0].workspaceId !== a.ws.id) failures.push(`${r.key} changed the caller's membership: ${JSON.stringify(membership)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  describe('settings routes: every level × own and other workspace (SPEC §6)', () => {
    it('gives each level the SPEC §6 outcome in its own workspace, and refusals change nothing', async () => {
      const failures: string[] = [];
      const settingsRoutes = routes.filter((r) => specOf(r)?.access.kind === 'settings' && !specOf(r).skip && !specOf(r).multipart && r.key !== 'PUT /api/operator/:id');
      expect(settingsRoutes.length).to.be.greaterThan(30);
      for (const level of LEVELS) {
        const actor = a.byLevel[level];
        for (const r of settingsRoutes) {
          const spec = specOf(r);
          const min = (spec.access as { min: number }).min;
          const allowed = level >= min;
          const before = allowed ? undefined : await snapshotTenant(api, a.ws.id);
          const res = await call(api, r, spec, allowed ? await fresh(a, spec) : a.ids, actor.token);
          if (allowed && !ok(res, spec)) failures.push(`level ${level} ${r.key} should be allowed → ${show(res)}`);
          if (!allowed) {
            if (res.status !== 403) failures.push(`level ${level} ${r.key} should be 403 → ${show(res)}`);
            const changed = changedTables(before!, await snapshotTenant(api, a.ws.id));
            if (changed.length) failures.push(`level ${level} ${r.key} refused but changed ${changed.join(', ')}`);
          }
        }
      }
      expect(failures).to.deep.equal([]);
    });

    it("answers 404 (403 below the route's level) to each level naming another workspace's rows, and changes nothing there", async () => {
      const failures: string[] = [];
      const withIds = routes.filter((r) => specOf(r)?.access.kind === 'settings' && !specOf(r).multipart && (r.params.length || specOf(r).refs));
      for (const level of LEVELS) {
        const actor = a.byLevel[level];
        for (const r of withIds) {
          const spec = specOf(r);
          const allowed = level >= (spec.access as { min: number }).min;
          const before = await snapshotOthers(api, a.ws.id);
          const res = r.params.length ? await call(api, r, spec, a.ids, actor.token, { params: spec.params?.(b.ids) }) : await call(api, r, spec, b.ids, actor.token);
          const expected = allowed ? (r.params.length ? [404] : [400, 404]) : [403, 404];
          if (!expected.includes(res.status)) failures.push(`level ${level} ${r.key} → ${show(res)}`);
          const changed = await othersChanged(api, before);
          if (changed.length) failures.push(`level ${level} ${r.key} changed ${changed.join(', ')}`);
        }
      }
      expect(failures).to.deep.equal([]);
    });

    it('lets nobody edit themselves or a member of equal or higher level; 6+ edits lower levels', async () => {
      const failures: string[] = [];
      const members = [...LEVELS, 10 as AccessLevelValue].map((l) => a.byLevel[l]);
      for (const actor of members) {
        for (const target of members) {
          const allowed = actor.accessLevel >= 6 && target.id !== actor.id && target.accessLevel < actor.accessLevel;
          const before = await snapshotTenant(api, a.ws.id);
          const res = await api.request('PUT', `/api/operator/${target.id}`, { token: actor.token, body: { isActive: true } });
          const label = `level ${actor.accessLevel} → ${target.id === actor.id ? 'self' : `level ${target.accessLevel}`}`;
          if (allowed ? res.status !== 200 : res.status !== 403) failures.push(`${label}: ${show(res)}`);
          // Even where the edit is allowed, no level above the editor's own (nor owner) can be given.
          if (allowed) {
            for (const accessLevel of [9, 10].filter((l) => l > actor.accessLevel || l === 10)) {
              const up = await api.request('PUT', `/api/operator/${target.id}`, { token: actor.token, body: { accessLevel } });
              if (up.status !== 400 && up.status !== 403) failures.push(`${label} promoting to ${accessLevel}: ${show(up)}`);
            }
            const changed = changedTables(before, await snapshotTenant(api, a.ws.id));
            if (changed.length) failures.push(`${label} promotion refused but changed ${changed.join(', ')}`);
          }
          // A refused edit trying to deactivate or promote changes nothing either.
          if (!allowed) {
            const worse = await api.request('PUT', `/api/operator/${target.id}`, { token: actor.token, body: { isActive: false, accessLevel: 9 } });
            if (worse.status !== 403) failures.push(`${label} (deactivate/promote): ${show(worse)}`);
            const changed = changedTables(before, await snapshotTenant(api, a.ws.id));
            if (changed.length) failures.push(`${label} refused but changed ${changed.join(', ')}`);
          }
        }
      }
      expect(failures).to.deep.equal([]);
    });
  });
});
