import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../api/auth/passwords';
import { signAccessToken } from '../../api/auth/tokens';
import type { AccessLevelValue } from '../../api/policy/levels';

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}-${randomBytes(3).toString('hex')}`;

export interface TestWorkspace {
  id: number;
  name: string;
}

export interface TestOperator {
  id: number;
  email: string;
  password: string;
  name: string;
  accessLevel: AccessLevelValue;
  workspaceId: number;
  token: string;
}

export async function makeWorkspace(knex: Knex, name = unique('Empresa')): Promise<TestWorkspace> {
  const [row] = await knex('workspaces').insert({ name, customerIdentifier: randomBytes(12).toString('hex') }).returning(['id', 'name']);
  return row as TestWorkspace;
}

/** An operator who is a member of `workspace` at `accessLevel`, with a valid workspace token. */
export async function makeOperator(
  knex: Knex,
  secret: string,
  workspace: TestWorkspace,
  accessLevel: AccessLevelValue = 10,
  overrides: { email?: string; password?: string; name?: string; isActive?: boolean; verificationLevel?: number } = {},
): Promise<TestOperator> {
  const password = overrides.password ?? 'segredo123';
  const email = overrides.email ?? `${unique('op')}@exemplo.com.br`;
  const name = overrides.name ?? `Pessoa ${seq}`;
  const [op] = await knex('operators')
    .insert({ name, email, passwordHash: await hashPassword(password), verificationLevel: overrides.verificationLevel ?? 2 })
    .returning(['id', 'token_version']);
  await knex('workspace_members').insert({ workspaceId: workspace.id, operatorId: op.id, accessLevel, isActive: overrides.isActive ?? true });
  const token = await signAccessToken(secret, { operatorId: op.id, workspaceId: workspace.id, accessLevel, operatorVersion: op.tokenVersion, memberVersion: 0 });
  return { id: op.id, email, password, name, accessLevel, workspaceId: workspace.id, token };
}
