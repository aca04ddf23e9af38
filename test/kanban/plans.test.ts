import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { seedWorkspace, type SeededWorkspace } from '../db/seedWorkspace';
import { pageIds } from '../../api/inbox/listConversations';
import { fixedScope } from '../../api/inbox/segmentScope';
import { columnScope, loadBoard } from '../../api/kanban/columns';
import type { ConversationViewer } from '../../api/policy/conversations';

/** EXPLAIN with sequential scans off: which index can serve the statement. */
async function plan(knex: Knex, query: Knex.QueryBuilder): Promise<string> {
  const { sql, bindings } = query.toSQL();
  return knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_seqscan = off');
    const { rows } = await trx.raw(`EXPLAIN ${sql}`, bindings as readonly Knex.Value[]);
    return (rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
  });
}

describe('kanban column pages use keyset indexes (docs/kanban.md "Paging")', function () {
  this.timeout(60_000);
  let knex: Knex;
  let ws: SeededWorkspace;
  let stageId: number;

  before(async () => {
    ({ knex } = await testDatabase());
    ws = await seedWorkspace(knex);
    const w = ws.workspaceId;
    const [funnel] = await knex('funnels').insert({ workspaceId: w, name: 'Funil' }).returning('id');
    const stages = await knex('funnel_stages')
      .insert([0, 1, 2].map((position) => ({ workspaceId: w, funnelId: funnel.id, name: `Etapa ${position}`, color: '#2E90FA', position })))
      .returning('id');
    stageId = stages[0].id;
    await knex.raw(`INSERT INTO customers (workspace_id, name) SELECT ?, 'Cliente ' || g FROM generate_series(1, 4000) g`, [w]);
    await knex.raw(
      `INSERT INTO customer_platforms (workspace_id, channel_id, customer_id, external_id, operator_id, is_finished, stage_id, last_message_at)
       SELECT ?, ?, c.id, 'k' || c.id, CASE WHEN c.id % 3 = 0 THEN ?::int END, c.id % 5 = 0, CASE WHEN c.id % 10 = 0 THEN (?::int[])[1 + c.id % 3] END, now() - (c.id || ' minutes')::interval
       FROM customers c WHERE c.workspace_id = ? AND c.name LIKE 'Cliente %'`,
      [w, ws.channelId, ws.operatorId, stages.map((s: { id: number }) => s.id), w],
    );
    await knex.raw('ANALYZE customer_platforms');
  });

  const owner = (): ConversationViewer => ({ workspaceId: ws.workspaceId, operatorId: ws.operatorId, accessLevel: 10, groupIds: [] });
  const input = { segmentId: 'all' as const, limit: 20, offset: 0, cursor: undefined, query: undefined };
  const after = { at: new Date().toISOString().replace('Z', '000Z'), id: 1e9 };

  it("a stage's column walks customer_platforms_stage_idx in order, from its cursor", async () => {
    const board = await loadBoard(knex, ws.workspaceId, 'stage', (await knex('funnels').where({ workspaceId: ws.workspaceId }).first('id')).id);
    const scope = columnScope(board, fixedScope('all', owner()), String(stageId));
    const p = await plan(knex, pageIds(knex, owner(), scope, input, after));
    expect(p).to.include('customer_platforms_stage_idx').and.not.match(/\bSort\b/);
  });

  it("the status columns walk the inbox's own indexes in order", async () => {
    const board = await loadBoard(knex, ws.workspaceId, 'status', undefined);
    for (const key of ['waiting', 'resolved']) {
      const p = await plan(knex, pageIds(knex, owner(), columnScope(board, fixedScope('all', owner()), key), input, after));
      expect(p, key).to.match(/customer_platforms_(inbox|assignee|unrouted)_idx/).and.not.match(/\bSort\b/);
    }
  });
});
