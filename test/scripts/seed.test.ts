import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { seedDemo, DEMO_LOGIN } from '../../scripts/lib/seed';
import { verifyPassword } from '../../api/auth/passwords';

describe('demo workspace seed (npm start)', () => {
  let knex: Knex;
  before(async () => {
    ({ knex } = await testDatabase());
  });

  it('creates the owner, an agent at each level 9/6/3/2, two groups, tags, quick phrases and a chat widget, once', async () => {
    const existing = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first();
    if (!existing) expect(await seedDemo(knex, { trialDays: 7, publicUrl: 'http://localhost:3000' })).to.equal(true);
    expect(await seedDemo(knex, { trialDays: 7, publicUrl: 'http://localhost:3000' })).to.equal(false);

    const owner = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first();
    expect(await verifyPassword(owner.passwordHash, DEMO_LOGIN.password)).to.equal(true);
    const { workspaceId } = await knex('workspace_members').where({ operatorId: owner.id }).first();
    const levels = (await knex('workspace_members').where({ workspaceId }).orderBy('accessLevel', 'desc').select('accessLevel')).map((r) => r.accessLevel);
    expect(levels).to.deep.equal([10, 9, 6, 3, 2]);
    expect(await knex('groups').where({ workspaceId }).count({ n: '*' }).first()).to.deep.equal({ n: 2 });
    expect(Number((await knex('group_members').where({ workspaceId }).count({ n: '*' }).first())?.n)).to.be.greaterThan(0);
    expect(Number((await knex('labels').where({ workspaceId }).count({ n: '*' }).first())?.n)).to.be.greaterThan(0);
    expect(Number((await knex('quick_phrases').where({ workspaceId }).count({ n: '*' }).first())?.n)).to.be.greaterThan(0);
    const widget = await knex('channels').where({ workspaceId, type: 'widget' }).first();
    expect(widget.platformId).to.equal(4);
    expect(widget.identifier).to.match(/^[0-9a-f]{32}$/);
    const sub = await knex('subscriptions').where({ workspaceId }).first();
    expect(sub).to.include({ license: 'trial', status: 'active' });
  });
});
