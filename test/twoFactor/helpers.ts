import { expect } from 'chai';
import { generate } from 'otplib';
import type { TestApi } from '../helpers/api';

/** The code an authenticator app shows `steps` time steps (30 s each) from now. */
export function codeAt(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * As if the authenticator app's clock had moved on: the server keeps the last accepted time step, so a
 * test that logs in several times within one 30-second step moves that mark back instead of waiting.
 */
export async function letTimePass(api: TestApi, operatorId: number): Promise<void> {
  await api.deps.knex('operatorTwoFactor').where({ operatorId }).update({ lastUsedStep: api.deps.knex.raw('last_used_step - 10') });
}

export interface Enabled {
  secret: string;
  backupCodes: string[];
  /** The fresh session's token (enabling ends the other sessions). */
  token: string;
  renewalToken: string;
}

/** Turns two-factor login on from the profile, the way the screen does: setup, then the app's first code. */
export async function enableTwoFactor(api: TestApi, token: string): Promise<Enabled> {
  const setup = await api.request('POST', '/api/operators/two-factor/setup', { token, body: {} });
  expect(setup.status, JSON.stringify(setup.body)).to.equal(200);
  const { secret } = setup.body.data as { secret: string };
  const enable = await api.request('POST', '/api/operators/two-factor/enable', { token, body: { code: await codeAt(secret) } });
  expect(enable.status, JSON.stringify(enable.body)).to.equal(200);
  const { backupCodes, session } = enable.body.data;
  return { secret, backupCodes, token: session.workspace.token, renewalToken: session.workspace.renewalToken };
}

export function login(api: TestApi, email: string, password: string) {
  return api.request('POST', '/api/operators/login', { body: { email, password } });
}

/** Logs in with the password and answers the challenge token of the two-factor step that follows. */
export async function passwordStep(api: TestApi, email: string, password: string, step: 'code' | 'setup' = 'code'): Promise<string> {
  const res = await login(api, email, password);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.data).to.have.keys(['twoFactor']);
  expect(res.body.data.twoFactor.step).to.equal(step);
  return res.body.data.twoFactor.challengeToken as string;
}

export function codeStep(api: TestApi, challengeToken: string, code: string) {
  return api.request('POST', '/api/operators/login/two-factor', { body: { challengeToken, code } });
}

/** Six digits the app does not show around now (so a "wrong code" test cannot pass by luck). */
export async function wrongCode(secret: string): Promise<string> {
  const near = new Set([await codeAt(secret, -1), await codeAt(secret), await codeAt(secret, 1)]);
  let n = 0;
  while (near.has(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}
