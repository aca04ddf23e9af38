import { expect } from 'chai';
import { createApp } from '../../api/app';
import type { AccessLevelValue } from '../../api/policy/levels';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeConversation, makeGroup } from '../inbox/factories';
import { expectedVisible } from '../policy/matrix';
import { CATALOG, FIXED_PARAMS, type RouteSpec } from './catalog';
import { appRoutes, fillPath, type AppRoute } from './routes';
import { changedTables, seedTenant, snapshotTenant, type Tenant, type TenantIds } from './tenant';

/**
 * Inside one workspace (SPEC §6 visibility, docs/visibility.md): a conversation a member may not see is as
 * missing as another workspace's, on every route that names a conversation, its contact, its messages or
 * its contact's properties: 404 and nothing changed. test/inbox/visibility.test.ts proves the list, the
 * counters, GET of one conversation and its messages per level with test/policy/matrix.ts; this covers
 * every other route, found from the catalog, so a new conversation call is covered as soon as it is listed.
 */
const SENTINEL = -7777;
const CONVERSATION_KEYS: (keyof TenantIds)[] = ['conversation', 'call', 'message', 'customer', 'property'];

describe('security: conversations a member may not see, on every route that names one', function () {
  this.timeout(300_000);
  let api: TestApi;
  let t: Tenant;
  let hidden: TenantIds;
  let routes: { route: AppRoute; spec: RouteSpec }[];

  before(async () => {
    api = await startTestApi();
    t = await seedTenant(api);
    // Assigned to the admin, in a group none of the viewers below belongs to: hidden from levels 2, 3 and 6.
    const group = await makeGroup(api.deps.knex, t.ws, [t.byLevel[9].id]);
    const channel = await api.deps.knex('channels').where({ id: t.ids.channel }).first('id', 'workspace_id', 'type', 'identifier');
    const conv = await makeConversation(api.deps, channel, { operatorId: t.byLevel[9].id, groupId: group });
    const customer = (await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id')).customerId as number;
    const prop = await api.request('POST', `/api/inbox/customer/${customer}/properties`, { token: t.owner.token, body: { label: 'Cidade', value: 'Olinda' } });
    expect(prop.status).to.equal(200);
    const property = (await api.deps.knex('customer_properties').where({ customerId: customer }).first('id')).id as number;
    // The other contact of a merge stays one the viewer can see (t.ids.customer2 is in no group, unassigned).
    hidden = { ...t.ids, conversation: conv.conversationId, call: conv.callId, message: conv.messageId, customer, property, operator: t.byLevel[9].id };

    // Every route whose path, query or body names one of the conversation's rows.
    const probe = Object.fromEntries(Object.entries(t.ids).map(([k, v]) => [k, CONVERSATION_KEYS.includes(k as keyof TenantIds) ? SENTINEL : v])) as unknown as TenantIds;
    const names = (spec: RouteSpec) => JSON.stringify([spec.params?.(probe), spec.query?.(probe), spec.body?.(probe)]).includes(String(SENTINEL));
    routes = appRoutes(createApp(api.deps))
      .map((route) => ({ route, spec: CATALOG[route.key] }))
      .filter(({ spec }) => spec && spec.access.kind !== 'public' && !spec.multipart && names(spec));
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  it('finds the conversation routes from the catalog', () => {
    const keys = routes.map((r) => r.route.key);
    for (const k of ['POST /api/inbox/messages', 'PUT /api/inbox/tag', 'POST /api/inbox/assignment', 'POST /api/calls/transfer-operator', 'PUT /api/inbox/customer/:customerId', 'POST /api/inbox/:segment/:id']) {
      expect(keys).to.include(k);
    }
  });

  for (const level of [2, 3, 6] as AccessLevelValue[]) {
    it(`answers 404 to a level ${level} member on each of them, and changes nothing`, async () => {
      const viewer = t.byLevel[level];
      // Not a member of the hidden conversation's group (seedTenant's own group holds the level-3 member).
      expect(expectedVisible({ id: viewer.id, accessLevel: level, member: false }, { operatorId: t.byLevel[9].id, groupId: -1 }), 'the conversation is hidden from this viewer').to.equal(false);
      const failures: string[] = [];
      for (const { route, spec } of routes) {
        const before = await snapshotTenant(api, t.ws.id);
        let path = fillPath(route.path, { ...FIXED_PARAMS, ...(spec.params?.(hidden) ?? {}) });
        const q = spec.query?.(hidden);
        if (q) path += `?${new URLSearchParams(q)}`;
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : spec.body?.(hidden);
        const res = await api.request(route.method, path, { token: viewer.token, ...(body ? { body } : {}) });
        const belowLevel = spec.access.kind === 'settings' && level < spec.access.min;
        const expected = belowLevel ? [403, 404] : [404];
        if (!expected.includes(res.status)) failures.push(`${route.key} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        const changed = changedTables(before, await snapshotTenant(api, t.ws.id));
        if (changed.length) failures.push(`${route.key} changed ${changed.join(', ')}`);
      }
      expect(failures).to.deep.equal([]);
    });
  }

  it('never shows the hidden contact in any list, search or suggestion to those members', async () => {
    const marker = `Oculto${Date.now()}`;
    await api.deps.knex('customers').where({ id: hidden.customer }).update({ name: marker, email: `${marker.toLowerCase()}@exemplo.com.br` });
    await api.deps.knex('customer_properties').where({ id: hidden.property }).update({ value: marker });
    await api.deps.knex('messages').where({ id: hidden.message }).update({ text: marker, content: JSON.stringify([{ insert: `${marker}\n` }]) });
    const lists = appRoutes(createApp(api.deps)).filter((r) => r.method === 'GET' && !r.params.length && CATALOG[r.key]?.access.kind === 'member');
    expect(lists.map((r) => r.key)).to.include.members(['GET /api/inbox', 'GET /api/customer/all-customers', 'GET /api/customer/properties']);
    const failures: string[] = [];
    for (const level of [2, 3, 6] as AccessLevelValue[]) {
      const viewer = t.byLevel[level];
      for (const r of lists) {
        for (const query of <Record<string, string>[]>[{}, { query: marker }, { filter: JSON.stringify({ q: marker }) }, { property: 'cidade', value: marker.slice(0, 6) }, { property: 'cidade' }, { segmentId: 'all', query: marker }]) {
          const res = await api.request('GET', `${r.path}?${new URLSearchParams(query)}`, { token: viewer.token });
          if (JSON.stringify(res.body ?? '').includes(marker)) failures.push(`level ${level} ${r.key} ${JSON.stringify(query)} shows the hidden contact`);
        }
      }
      const counter = await api.request('POST', '/api/inbox/counter', { token: viewer.token });
      expect(JSON.stringify(counter.body)).not.to.include(marker);
    }
    expect(failures).to.deep.equal([]);
    // The owner sees it where it is listed: the marker is really there to be found.
    const own = await api.request('GET', `/api/customer/all-customers?${new URLSearchParams({ query: marker })}`, { token: t.owner.token });
    expect(JSON.stringify(own.body)).to.include(marker);
  });

  it('answers the owner on the same routes (the hidden rows are real and reachable by who may see them)', async () => {
    const failures: string[] = [];
    for (const { route, spec } of routes.filter(({ spec }) => !spec.skip && !spec.freshFrom)) {
      let path = fillPath(route.path, { ...FIXED_PARAMS, ...(spec.params?.(hidden) ?? {}) });
      const q = spec.query?.(hidden);
      if (q) path += `?${new URLSearchParams(q)}`;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : spec.body?.(hidden);
      const res = await api.request(route.method, path, { token: t.owner.token, ...(body ? { body } : {}) });
      const ok = (res.status >= 200 && res.status < 300) || (spec.okStatuses ?? []).includes(res.status);
      if (!ok) failures.push(`${route.key} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
    }
    expect(failures).to.deep.equal([]);
  });
});
