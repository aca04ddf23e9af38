import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { othersChanged, snapshotOthers, unwatchOthers, watchOthers } from './tenant';

/**
 * The route matrix's "nothing outside the caller's workspace changed" (test/security/tenant.ts) can fail:
 * every kind of write to another workspace's rows made between the snapshot and the check is named by its
 * table, the caller's own writes and no-op updates are not, and nothing of the check outlives the file.
 */
describe('security: the check that nothing outside the caller’s workspace changed', function () {
  this.timeout(60_000);
  let api: TestApi;
  let mine: TestWorkspace;
  let other: TestWorkspace;
  let myOperator: TestOperator;
  let otherOperator: TestOperator;
  let otherLabel: number;
  let myLabel: number;

  const label = (workspaceId: number, name: string) => api.deps.knex('labels').insert({ workspaceId, name, color: '#D1FADF', textColor: '#027A48' }).returning('id').then(([r]) => r.id as number);

  /** What `othersChanged` reports for a probe of a member of `mine` during which `write` ran. */
  async function reported(write: () => Promise<unknown>): Promise<string[]> {
    const since = await snapshotOthers(api, mine.id);
    await write();
    return othersChanged(api, since);
  }

  before(async () => {
    api = await startTestApi();
    const { knex } = api.deps;
    mine = await makeWorkspace(knex);
    other = await makeWorkspace(knex);
    myOperator = await makeOperator(knex, api.config.jwtSecret, mine, 10);
    otherOperator = await makeOperator(knex, api.config.jwtSecret, other, 10);
    otherLabel = await label(other.id, 'Dela');
    myLabel = await label(mine.id, 'Minha');
    await watchOthers(api);
  });
  after(async () => {
    if (!api) return;
    await unwatchOthers(api);
    await api.close();
  });

  it("reports an insert, an update and a delete of another workspace's row with its table", async () => {
    const { knex } = api.deps;
    let inserted = 0;
    expect(await reported(async () => (inserted = await label(other.id, 'Nova')))).to.deep.equal(['labels']);
    expect(await reported(() => knex('labels').where({ id: otherLabel }).update({ name: 'Mudou' }))).to.deep.equal(['labels']);
    expect(await reported(() => knex('labels').where({ id: inserted }).delete())).to.deep.equal(['labels']);
  });

  it("reports an update of another workspace's `workspaces` row and of an operator who is not a member", async () => {
    const { knex } = api.deps;
    expect(await reported(() => knex('workspaces').where({ id: other.id }).update({ name: 'Outro nome' }))).to.deep.equal(['workspaces']);
    expect(await reported(() => knex('operators').where({ id: otherOperator.id }).update({ name: 'Outra pessoa' }))).to.deep.equal(['operators']);
  });

  it('does not report an update that leaves the row as it was', async () => {
    const { knex } = api.deps;
    expect(await reported(() => knex('labels').where({ id: otherLabel }).update({ name: knex.ref('name') }))).to.deep.equal([]);
    expect(await reported(() => knex('workspaces').where({ id: other.id }).update({ name: knex.ref('name') }))).to.deep.equal([]);
  });

  it("does not report the caller's own workspace, its rows and its members", async () => {
    const { knex } = api.deps;
    expect(
      await reported(async () => {
        const id = await label(mine.id, 'Outra minha');
        await knex('labels').where({ id: myLabel }).update({ name: 'Minha mudou' });
        await knex('labels').where({ id }).delete();
        await knex('workspaces').where({ id: mine.id }).update({ name: 'Meu nome' });
        await knex('operators').where({ id: myOperator.id }).update({ name: 'Eu mesma' });
      }),
    ).to.deep.equal([]);
  });

  it('reports rows moved between the workspaces, either way, and a change undone within the probe', async () => {
    const { knex } = api.deps;
    expect(await reported(() => knex('labels').where({ id: otherLabel }).update({ workspaceId: mine.id }))).to.deep.equal(['labels']);
    expect(await reported(() => knex('labels').where({ id: otherLabel }).update({ workspaceId: other.id }))).to.deep.equal(['labels']);
    expect(await reported(async () => knex('labels').where({ id: await label(other.id, 'Efêmera') }).delete())).to.deep.equal(['labels']);
  });

  it('reports what commits during the probe, even from a transaction begun before it, and not what was rolled back or committed before', async () => {
    const { knex } = api.deps;
    const early = await knex.transaction();
    await early.table('labels').where({ id: otherLabel }).update({ name: 'Antes, confirmada depois' });
    // Committed before the probe: a later log id than `early`'s change, yet not the probe's.
    await label(other.id, 'Antes');
    const since = await snapshotOthers(api, mine.id);
    await early.commit();
    expect(await othersChanged(api, since)).to.deep.equal(['labels']);

    expect(
      await reported(async () => {
        await knex
          .transaction(async (trx) => {
            await trx('workspaces').where({ id: other.id }).update({ name: 'Desfeito' });
            throw new Error('rollback');
          })
          .catch(() => undefined);
      }),
    ).to.deep.equal([]);
  });

  it('names every table that changed in one probe', async () => {
    const { knex } = api.deps;
    expect(
      await reported(async () => {
        await knex('labels').where({ id: otherLabel }).update({ name: 'De novo' });
        await knex('workspaces').where({ id: other.id }).update({ name: 'De novo' });
        await knex('operators').where({ id: otherOperator.id }).update({ name: 'De novo' });
      }),
    ).to.deep.equal(['labels', 'operators', 'workspaces']);
  });

  it('leaves no trigger, function or table behind', async () => {
    await unwatchOthers(api);
    const { knex } = api.deps;
    const left = await knex.raw(
      `select tgname as name from pg_trigger where tgname like 'security_probe%'
       union all select proname from pg_proc where proname like 'security_probe%'
       union all select relname from pg_class where relname like 'security_probe%'`,
    );
    expect(left.rows).to.deep.equal([]);
  });
});
