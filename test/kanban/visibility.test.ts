import { expect } from 'chai';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { buildMatrix, expectedVisible, visibleIds, type Matrix, type Viewer } from '../policy/matrix';

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('kanban visibility matrix: 5 levels × group membership × assignment, on every grouping', function () {
  this.timeout(180_000);
  let api: TestApi;
  let m: Matrix;
  let funnelId: number;
  let stageId: number;

  before(async () => {
    api = await startTestApi();
    m = await buildMatrix(api.deps);
    const owner = m.viewers.find((v) => v.accessLevel === 10)!;
    const funnel = await api.request('POST', '/api/funnels', { token: owner.token, body: { name: 'Funil', stages: [{ name: 'Etapa', color: '#2E90FA' }] } });
    funnelId = funnel.body.data.id;
    stageId = funnel.body.data.stages[0].id;
    // Half the conversations in the stage, so both the stage's column and 'Sem etapa' hold hidden and visible ones.
    const half = m.conversations.filter((_, i) => i % 2 === 0).map((c) => c.id);
    await api.deps.knex('customer_platforms').whereIn('id', half).update({ stageId });
  });
  after(() => api.close());

  /** Every card of every column, through each column's pages. */
  async function everyCard(token: string, params: Record<string, string>): Promise<{ ids: number[]; counts: (number | null)[] }> {
    const res = await api.request('GET', `/api/kanban?${new URLSearchParams({ ...params, limit: '4' })}`, { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const ids: number[] = [];
    const counts: (number | null)[] = [];
    for (const col of res.body.data.columns as { key: string; data: { id: number }[]; nextCursor: string | null; matchCount: number | null }[]) {
      ids.push(...col.data.map((c) => c.id));
      counts.push(col.matchCount);
      let cursor = col.nextCursor;
      for (let i = 0; cursor && i < 50; i++) {
        const page: ApiResponse = await api.request('GET', `/api/kanban/column?${new URLSearchParams({ ...params, column: col.key, cursor, limit: '4' })}`, { token });
        expect(page.status, JSON.stringify(page.body)).to.equal(200);
        ids.push(...page.body.data.map((c: { id: number }) => c.id));
        cursor = page.body.nextCursor;
      }
    }
    return { ids, counts };
  }

  const each = (fn: (v: Viewer) => Promise<void>) => async () => {
    for (const v of m.viewers) await fn(v);
  };

  it(
    'grouped by status, group or stage, the board holds exactly the conversations the viewer may see, each once, and the counts add up',
    each(async (v) => {
      for (const params of [{ groupBy: 'status' }, { groupBy: 'group' }, { groupBy: 'stage', funnelId: String(funnelId) }] as Record<string, string>[]) {
        const { ids, counts } = await everyCard(v.token, params);
        expect(sorted(ids), `${v.label} ${params.groupBy}`).to.deep.equal(visibleIds(m, v));
        expect(counts.reduce<number>((a, n) => a + (n ?? 0), 0), `${v.label} ${params.groupBy} counts`).to.equal(visibleIds(m, v).length);
      }
      // "Meus": the viewer's own, always visible.
      const own = m.conversations.filter((c) => c.operatorId === v.id).map((c) => c.id);
      expect(sorted((await everyCard(v.token, { groupBy: 'status', segmentId: 'me' })).ids), v.label).to.deep.equal(sorted(own));
    }),
  );

  it(
    'a hidden conversation cannot be moved (404, unchanged) and a visible one can',
    each(async (v) => {
      const stageOf = async (id: number) => ((await api.deps.knex('customer_platforms').where({ id }).first('stage_id')) as { stageId: number | null }).stageId;
      for (const c of m.conversations) {
        const before = await stageOf(c.id);
        const to = before === null ? String(stageId) : 'none';
        const res = await api.request('POST', '/api/kanban/move', { token: v.token, body: { id: c.id, groupBy: 'stage', funnelId, to } });
        const visible = expectedVisible(v, c);
        expect(res.status, `${v.label}: ${c.label}`).to.equal(visible ? 200 : 404);
        expect(await stageOf(c.id), `${v.label}: ${c.label}`).to.equal(visible ? (before === null ? stageId : null) : before);
        if (!visible) expect(res.body.errors[0].type).to.equal('NotFoundError');
      }
    }),
  );
});
