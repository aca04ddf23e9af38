import { expect } from 'chai';
import { testDatabase } from '../helpers/db';
import { MOVED_REFERENCES, NEVER_PENDING } from '../../api/operators/pendingMembers';

describe('pending members (invitations) and what may point at them', () => {
  it('sorts every foreign key to operators and workspace_members into moved on acceptance or never pointing at a pending member', async () => {
    const { knex } = await testDatabase();
    const { rows } = await knex.raw(`
      SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'f' AND c.confrelid IN ('operators'::regclass, 'workspace_members'::regclass) AND a.attname <> 'workspace_id'`);
    const found = [...new Set((rows as { tbl: string; col: string }[]).map((r) => `${r.tbl}.${r.col}`))].sort();
    const sorted = [...MOVED_REFERENCES, ...NEVER_PENDING].map(([t, c]) => `${t}.${c}`);
    expect(new Set(sorted).size, 'listed once').to.equal(sorted.length);
    expect(found).to.deep.equal([...sorted].sort());
  });
});
