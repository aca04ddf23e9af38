import { expect } from 'chai';
import type { ApiResponse, TestApi } from '../helpers/api';
import { unique } from '../helpers/factories';

export interface SignedUp {
  email: string;
  password: string;
  name: string;
  workspaceName: string;
  body: any;
  token: string;
  renewalToken: string;
  operatorId: number;
  workspaceId: number;
}

export function newEmail(prefix = 'pessoa'): string {
  return `${unique(prefix)}@exemplo.com.br`;
}

/** Signs a person up through the API (the real flow), answering what a test needs next. */
export async function signUp(api: TestApi, overrides: Partial<{ email: string; password: string; name: string; workspace: string }> = {}): Promise<SignedUp> {
  const email = overrides.email ?? newEmail();
  const password = overrides.password ?? 'senha-forte-1';
  const name = overrides.name ?? 'Maria Souza';
  const workspaceName = overrides.workspace ?? unique('Loja');
  const res = await api.request('POST', '/api/signup', { body: { name, workspace: workspaceName, email, password, acceptTerms: true } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const ws = res.body.data.workspace;
  return {
    email,
    password,
    name,
    workspaceName,
    body: res.body,
    token: ws.token,
    renewalToken: ws.renewalToken,
    operatorId: res.body.data.user.id,
    workspaceId: ws.workspaceId,
  };
}

export function login(api: TestApi, email: string, password: string, headers?: Record<string, string>) {
  return api.request('POST', '/api/operators/login', { body: { email, password }, headers });
}

/** The error entries by key, asserting the DESIGN.md §3 shape on the way. */
export function fieldErrors(res: ApiResponse): Record<string, string[]> {
  expect(res.body, JSON.stringify(res.body)).to.have.property('errors').that.is.an('array').with.length.greaterThan(0);
  const out: Record<string, string[]> = {};
  for (const e of res.body.errors) {
    expect(e).to.have.keys(e.key === undefined ? ['type', 'title', 'descriptions'] : ['type', 'title', 'key', 'descriptions']);
    out[e.key ?? ''] = e.descriptions;
  }
  return out;
}

export function expectError(res: ApiResponse, status: number, type: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.errors[0].type).to.equal(type);
}

/** Token and query of a link captured from a mail. */
export function linkParams(link: string | undefined): URLSearchParams & { path: string } {
  expect(link, 'mail has a link').to.be.a('string');
  const url = new URL(link as string);
  return Object.assign(url.searchParams, { path: url.pathname });
}

/** Every mail to `to` whose action link goes to `path` (e.g. '/user/reset'), in arrival order. */
export function mailsTo(api: TestApi, to: string, path?: string) {
  return api.mailbox.mails.filter(
    (m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && (!path || (m.link !== undefined && new URL(m.link).pathname === path)),
  );
}

/** Waits for the (after+1)-th mail to `to` linking to `path`. */
export async function waitForMail(api: TestApi, to: string, path: string, after = 0) {
  return api.mailbox.waitFor(to, (m) => mailsTo(api, to, path).indexOf(m) >= after);
}
