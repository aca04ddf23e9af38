import { expect } from 'chai';
import { migrationConfig } from '../../api/db/migrate';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratchDatabase';

const TRIAL_GRANTS = '20261124110100_create_trial_grants.ts';

describe('migration: trials already given are recorded per e-mail', function () {
  this.timeout(120_000);
  let db: ScratchDatabase;
  before(async () => {
    db = await createScratchDatabase('balcao_trial_grants');
  });
  after(() => db?.drop());

  it("records each owner's oldest trial under the normalised address, so an owner with trials before it gets no new one", async () => {
    const k = db.knex;
    for (;;) {
      const [, pending] = (await k.migrate.list(migrationConfig)) as [unknown, { file: string }[]];
      if (pending[0].file === TRIAL_GRANTS) break;
      await k.migrate.up(migrationConfig);
    }
    const op = async (email: string, verificationLevel = 2) =>
      (await k('operators').insert({ name: email, email, verificationLevel }).returning('id'))[0].id as number;
    const ws = async (ownerId: number, license: string, createdAt: string) => {
      const [{ id }] = await k('workspaces').insert({ name: `ws ${createdAt}`, customerIdentifier: `${ownerId}-${createdAt}` }).returning('id');
      await k('workspace_members').insert({ workspaceId: id, operatorId: ownerId, accessLevel: 10 });
      await k('subscriptions').insert({ workspaceId: id, license, status: 'active', expiresAt: new Date(), createdAt });
      return id as number;
    };
    const ana = await op('Ana+Loja@Exemplo.com.br');
    const anaFirst = await ws(ana, 'trial', '2026-01-01T00:00:00Z');
    await ws(ana, 'trial', '2026-02-01T00:00:00Z');
    const bia = await op('bia@exemplo.com.br');
    await ws(bia, 'business', '2026-01-01T00:00:00Z');
    const invited = await op('convidada@exemplo.com.br', 0);
    await ws(invited, 'trial', '2026-01-01T00:00:00Z');

    await k.migrate.up(migrationConfig);
    const grants = await k('trial_grants').orderBy('email_key').select('emailKey', 'operatorId', 'workspaceId');
    expect(grants).to.deep.equal([{ emailKey: 'ana@exemplo.com.br', operatorId: ana, workspaceId: anaFirst }]);

    await k.migrate.down(migrationConfig);
    expect((await k.raw("SELECT to_regclass('trial_grants') AS t")).rows[0].t).to.equal(null);
  });
});
