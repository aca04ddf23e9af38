import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { delta, makeChannel, makeConversation, type TestChannel } from '../inbox/factories';

/** The facts come from the real pipeline: receiveInbound, POST /inbox/messages, resolve and reopen. */
describe('reports: facts recorded in the same transaction as the inbox writes', function () {
  this.timeout(60_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let widget: TestChannel;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    widget = await makeChannel(knex, ws, 'widget');
  });
  after(async () => {
    await api.close();
  });

  const kinds = async (callId: number) => (await knex('report_facts').where({ callId }).orderBy('id').select('kind', 'operator_id')).map((r: { kind: number }) => r.kind);

  it('a private note does not stop the wait; the first agent reply records TME and TMR; resolving records resolved and TMA; reopening opens a new call', async () => {
    const c = await makeConversation(api.deps, widget, { operatorId: owner.id });
    expect(await kinds(c.callId)).to.deep.equal([1]);

    const note = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: c.conversationId, content: delta('nota interna'), type: 2 } });
    expect(note.status).to.equal(201);
    expect(await kinds(c.callId)).to.deep.equal([1]);

    const reply = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: c.conversationId, content: delta('Olá! Como posso ajudar?'), type: 0 } });
    expect(reply.status).to.equal(201);
    expect(await kinds(c.callId)).to.deep.equal([1, 3, 4]);
    const tme = await knex('report_facts').where({ callId: c.callId, kind: 3 }).first('ms', 'operator_id');
    expect(Number(tme.ms)).to.be.within(0, 60_000);
    expect(tme.operatorId).to.equal(owner.id);

    const resolved = await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    expect(resolved.status).to.equal(200);
    expect(await kinds(c.callId)).to.deep.equal([1, 3, 4, 2, 5]);

    const reopened = await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'open' } });
    expect(reopened.status).to.equal(200);
    const calls = await knex('calls').where({ customerPlatformId: c.conversationId }).orderBy('id').select('id');
    expect(calls).to.have.length(2);
    expect(await kinds(calls[1].id)).to.deep.equal([1]);
    expect(await kinds(c.callId)).to.deep.equal([1, 3, 4, 2, 5]);
  });

  it('adds the day of every fact to the daily rows in the same transaction (a rolled-back reply leaves neither)', async () => {
    const c = await makeConversation(api.deps, widget);
    const before = await knex('report_daily').where({ workspaceId: ws.id }).sum({ n: 'tme_count' }).first();
    await knex
      .transaction(async (trx) => {
        await trx('calls').where({ id: c.callId }).update({ firstResponseAt: trx.fn.now(), responseCount: 1, waitingSince: null });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await kinds(c.callId)).to.deep.equal([1]);
    const after = await knex('report_daily').where({ workspaceId: ws.id }).sum({ n: 'tme_count' }).first();
    expect(Number(after?.n ?? 0)).to.equal(Number(before?.n ?? 0));
  });
});
