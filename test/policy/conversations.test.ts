import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { applyVisibility, canSeeConversation, loadViewer, operatorsWhoCanSee, visibilityArms, type ConversationViewer } from '../../api/policy/conversations';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { buildMatrix, expectedVisible, visibleIds, type Matrix, type Viewer } from './matrix';

describe('conversation visibility policy (SPEC §6)', () => {
  let api: TestApi;
  let m: Matrix;
  const viewerOf = (v: Viewer): Promise<ConversationViewer> => loadViewer(api.deps.knex, { workspaceId: v.workspaceId, operatorId: v.id, accessLevel: v.accessLevel });

  before(async function () {
    this.timeout(60_000);
    api = await startTestApi();
    m = await buildMatrix(api.deps);
  });
  after(() => api.close());

  it('canSeeConversation follows the rule for every level, membership and assignment', async () => {
    for (const v of m.viewers) {
      const viewer = await viewerOf(v);
      for (const c of m.conversations) {
        expect(canSeeConversation(viewer, { workspaceId: m.ws.id, ...c }), `${v.label} → ${c.label}`).to.equal(expectedVisible(v, c));
      }
    }
  });

  it('never lets a viewer see a conversation of another workspace', async () => {
    const viewer = await viewerOf(m.viewers[0]);
    expect(canSeeConversation(viewer, { workspaceId: m.ws.id + 100000, operatorId: null, groupId: null })).to.equal(false);
  });

  it('the SQL condition selects exactly what canSeeConversation allows, and each visible row matches exactly one arm', async () => {
    const ids = m.conversations.map((c) => c.id);
    for (const v of m.viewers) {
      const viewer = await viewerOf(v);
      const rows: { id: number }[] = await applyVisibility(api.deps.knex('customer_platforms').where({ workspaceId: m.ws.id }).whereIn('id', ids), viewer).select('id').orderBy('id');
      expect(rows.map((r) => r.id), v.label).to.deep.equal(visibleIds(m, v));

      const arms = visibilityArms(viewer, 'customer_platforms');
      if (!arms) {
        expect(v.accessLevel, v.label).to.be.at.least(9);
        continue;
      }
      const hits = new Map<number, number>();
      for (const arm of arms) {
        const armRows: { id: number }[] = await api.deps.knex('customer_platforms').where({ workspaceId: m.ws.id }).whereIn('id', ids).whereRaw(arm.sql, arm.bindings).select('id');
        for (const r of armRows) hits.set(r.id, (hits.get(r.id) ?? 0) + 1);
      }
      for (const id of visibleIds(m, v)) expect(hits.get(id), `${v.label}: conversa ${id} em um só braço`).to.equal(1);
      expect([...hits.keys()].sort((a, b) => a - b), v.label).to.deep.equal(visibleIds(m, v));
    }
  });

  it("operatorsWhoCanSee never lists members of another workspace, whatever their level", async () => {
    const otherWs = await makeWorkspace(api.deps.knex);
    const outsiders = await Promise.all(([10, 9, 6, 3, 2] as const).map((l) => makeOperator(api.deps.knex, api.config.jwtSecret, otherWs, l)));
    for (const c of m.conversations) {
      const ids = await operatorsWhoCanSee(api.deps.knex, m.ws.id, c);
      for (const o of outsiders) expect(ids, c.label).to.not.include(o.id);
    }
  });

  it('operatorsWhoCanSee lists exactly the active members the rule allows, in one query', async () => {
    const everyone = [...m.viewers, { ...m.other, member: false }];
    for (const c of m.conversations) {
      const expected = everyone.filter((v) => expectedVisible(v, c)).map((v) => v.id).sort((a, b) => a - b);
      const queries: string[] = [];
      const onQuery = (q: { sql: string }) => queries.push(q.sql);
      api.deps.knex.on('query', onQuery);
      try {
        expect(await operatorsWhoCanSee(api.deps.knex, m.ws.id, c), c.label).to.deep.equal(expected);
      } finally {
        api.deps.knex.off('query', onQuery);
      }
      expect(queries, c.label).to.have.length(1);
      expect(expected).to.not.include(m.inactive.id);
    }
  });
});
