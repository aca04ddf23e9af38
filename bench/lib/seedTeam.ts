import type { Knex } from 'knex';
import { signAccessToken } from '../../api/auth/tokens';
import type { AccessLevelValue } from '../../api/policy/levels';
import { JWT_SECRET } from './server';

export interface BenchMember {
  operatorId: number;
  token: string;
}

/** A workspace with `count` active members at `level`, in two statements, each with a signed access token. */
export async function seedTeam(knex: Knex, label: string, count: number, level: AccessLevelValue = 3): Promise<{ workspaceId: number; members: BenchMember[] }> {
  const stamp = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const [ws] = await knex('workspaces').insert({ name: `Bench ${label}`, customerIdentifier: stamp.slice(0, 64) }).returning('id');
  const { rows } = await knex.raw<{ rows: { id: number }[] }>(
    `INSERT INTO operators (name, email, verification_level)
     SELECT 'Agente ' || g, ? || '-' || g || '@bench.dev', 2 FROM generate_series(1, ?) g RETURNING id`,
    [stamp, count],
  );
  await knex.raw(
    `INSERT INTO workspace_members (workspace_id, operator_id, access_level) SELECT ?, id, ? FROM unnest(?::int[]) id`,
    [ws.id, level, rows.map((r) => r.id)],
  );
  const members = await Promise.all(
    rows.map(async (r) => ({
      operatorId: r.id,
      token: await signAccessToken(JWT_SECRET, { operatorId: r.id, workspaceId: ws.id, accessLevel: level, operatorVersion: 0, memberVersion: 0 }),
    })),
  );
  return { workspaceId: ws.id, members };
}
