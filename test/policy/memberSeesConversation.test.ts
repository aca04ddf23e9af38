import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { memberSeesConversationSql, operatorsWhoCanSee } from '../../api/policy/conversations';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { buildMatrix, expectedVisible, type Matrix } from './matrix';

/**
 * The inbound statement (api/inbound/ingestStatement.ts) names a message's recipients in the statement that
 * stores it, with the rule written over the conversation's columns: it must name exactly whom
 * operatorsWhoCanSee names, for every level, membership and assignment.
 */
describe('memberSeesConversationSql: the recipients rule over a row of the same statement', () => {
  let api: TestApi;
  let m: Matrix;

  before(async function () {
    this.timeout(60_000);
    api = await startTestApi();
    m = await buildMatrix(api.deps);
  });
  after(() => api.close());

  async function recipientsInSql(workspaceId: number, conversationId: number): Promise<number[]> {
    const sees = memberSeesConversationSql({ operatorId: 'conv.operator_id', groupId: 'conv.group_id' });
    const { rows } = await api.deps.knex.raw<{ rows: { operatorId: number }[] }>(
      `SELECT m.operator_id AS "operatorId" FROM customer_platforms conv JOIN workspace_members m ON m.workspace_id = conv.workspace_id
       WHERE conv.id = ? AND conv.workspace_id = ? AND m.is_active AND (${sees.sql}) ORDER BY m.operator_id`,
      [conversationId, workspaceId, ...sees.bindings],
    );
    return rows.map((r) => r.operatorId);
  }

  it('lists exactly the active members the rule allows, the same as operatorsWhoCanSee, for every conversation of the matrix', async () => {
    const everyone = [...m.viewers, { ...m.other, member: false }];
    for (const c of m.conversations) {
      const expected = everyone.filter((v) => expectedVisible(v, c)).map((v) => v.id).sort((a, b) => a - b);
      const inSql = await recipientsInSql(m.ws.id, c.id);
      expect(inSql, c.label).to.deep.equal(expected);
      expect(inSql, c.label).to.deep.equal(await operatorsWhoCanSee(api.deps.knex, m.ws.id, c));
      expect(inSql).to.not.include(m.inactive.id);
    }
  });

  it('never lists members of another workspace, whatever their level', async () => {
    const otherWs = await makeWorkspace(api.deps.knex);
    const outsiders = await Promise.all(([10, 9, 6, 3, 2] as const).map((l) => makeOperator(api.deps.knex, api.config.jwtSecret, otherWs, l)));
    for (const c of m.conversations) {
      const ids = await recipientsInSql(m.ws.id, c.id);
      for (const o of outsiders) expect(ids, c.label).to.not.include(o.id);
    }
  });
});
