import { expect } from 'chai';
import type { Knex } from 'knex';
import { coalescing } from '../../api/db/coalesce';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeWorkspace } from '../helpers/factories';
import { makeChannel } from '../inbox/factories';
import { createVisitor, findVisitorByToken } from '../../api/auth/visitorSessions';
import { markInboundPublished } from '../../api/conversations/republishInbound';

/** api/db/coalesce.ts: group commit of the small per-message statements (docs/performance.md "Ingest"). */
describe('coalescing: calls made while a run is in flight go out together', () => {
  /** A run whose end the test decides, recording the batches it was given. */
  function gatedRun() {
    const batches: number[][] = [];
    const gates: (() => void)[] = [];
    const run = async (_knex: Knex, keys: number[]) => {
      batches.push(keys);
      await new Promise<void>((r) => gates.push(r));
      if (keys.includes(13)) throw new Error('falhou');
      return new Map(keys.map((k) => [k, k * 10]));
    };
    return { batches, gates, run };
  }
  const db = {} as Knex;
  const settle = () => new Promise((r) => setImmediate(r));

  it('an idle call goes out at once and alone; calls during its run go out together in the next run', async () => {
    const { batches, gates, run } = gatedRun();
    const call = coalescing(run);
    const first = call(db, 1);
    expect(batches).to.deep.equal([[1]]);
    const later = [call(db, 2), call(db, 3), call(db, 2)];
    expect(batches).to.have.length(1);
    gates[0]();
    expect(await first).to.equal(10);
    await settle();
    expect(batches).to.deep.equal([[1], [2, 3, 2]]);
    gates[1]();
    expect(await Promise.all(later)).to.deep.equal([20, 30, 20]);
  });

  it('a failed run rejects the calls of its batch only, and the next batch still goes out', async () => {
    const { batches, gates, run } = gatedRun();
    const call = coalescing(run);
    const first = call(db, 13);
    const second = call(db, 4);
    gates[0]();
    const failed = await first.then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    expect(failed).to.equal('falhou');
    await settle();
    gates[1]();
    expect(await second).to.equal(40);
    expect(batches).to.deep.equal([[13], [4]]);
  });

  it('never puts more than maxBatch keys in one run', async () => {
    const { batches, gates, run } = gatedRun();
    const call = coalescing(run, 2);
    const all = [call(db, 1), call(db, 2), call(db, 3), call(db, 4), call(db, 5)];
    for (let i = 0; i < 4; i++) {
      await settle();
      gates[i]?.();
    }
    await Promise.all(all);
    expect(batches).to.deep.equal([[1], [2, 3], [4, 5]]);
  });
});

describe('coalesced per-message statements on the database', () => {
  let api: TestApi;
  before(async function () {
    this.timeout(60_000);
    api = await startTestApi();
  });
  after(() => api.close());

  it('visitor tokens looked up at once: each resolves to its own session, an unknown one to nothing, in two statements (the first alone, the rest together)', async () => {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const visitors = await Promise.all(Array.from({ length: 12 }, () => createVisitor(knex, { workspaceId: ws.id, id: channel.id })));
    const unknown = 'A'.repeat(43);
    const sql: string[] = [];
    const on = (q: { sql: string }) => sql.push(q.sql);
    knex.on('query', on);
    let sessions;
    try {
      sessions = await Promise.all([...visitors.map((v) => findVisitorByToken(knex, v.token)), findVisitorByToken(knex, unknown)]);
    } finally {
      knex.removeListener('query', on);
    }
    expect(sessions.slice(0, 12).map((s) => s?.visitorId)).to.deep.equal(visitors.map((v) => v.visitorId));
    for (const s of sessions.slice(0, 12)) expect(s).to.include({ workspaceId: ws.id, channelId: channel.id, channelIdentifier: channel.identifier });
    expect(sessions[12]).to.equal(undefined);
    // The first lookup went out alone at once; the other twelve, made while it ran, in one statement.
    expect(sql.filter((q) => q.includes('widget_visitors')), sql.join('\n')).to.have.length(2);
  });

  it('published marks made at once all commit, and only on the events named', async () => {
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const ids: number[] = (
      await knex('inbound_events')
        .insert(Array.from({ length: 8 }, (_, i) => ({ workspaceId: ws.id, channelId: channel.id, externalId: `marca-${i}`, payload: '{}', processedAt: knex.fn.now() })))
        .returning('id')
    ).map((r: { id: number }) => r.id);
    await Promise.all(ids.slice(0, 6).map((id) => markInboundPublished(knex, id)));
    const rows: { id: number; publishedAt: Date | null }[] = await knex('inbound_events').whereIn('id', ids).orderBy('id').select('id', 'published_at');
    expect(rows.map((r) => r.publishedAt !== null)).to.deep.equal([true, true, true, true, true, true, false, false]);
  });
});
