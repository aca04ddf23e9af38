import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { expectError, fieldErrors } from './helpers';

interface Endpoint {
  method: string;
  path: string;
  auth?: boolean;
  /** A body that passes validation (it may still fail later, e.g. an unknown token). */
  valid: Record<string, unknown>;
  /** Keys reported as 'Campo obrigatório.' for an empty body. */
  required: string[];
  /** Keys whose value may be a long string (checked for the length cap). */
  texts: string[];
  query?: boolean;
  /** A resource save (react-admin sends the whole record back): unknown fields are dropped, never refused nor written. */
  dropsUnknown?: boolean;
}

const token = 'A'.repeat(43);
const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/signup', valid: { name: 'A', workspace: 'B', email: 'a@b.com', password: '123456', acceptTerms: true }, required: ['name', 'workspace', 'email', 'password'], texts: ['name', 'workspace', 'email', 'password'] },
  { method: 'POST', path: '/api/operators/login', valid: { email: 'a@b.com', password: 'x' }, required: ['email', 'password'], texts: ['email', 'password'] },
  { method: 'POST', path: '/api/operators/forgot-password', valid: { email: 'a@b.com' }, required: ['email'], texts: ['email'] },
  ...['POST', 'PUT'].map((method) => ({
    method,
    path: '/api/operators/reset-password',
    valid: { newPassword: '12345', confirmNewPassword: '12345', token, email: 'a@b.com' },
    required: ['newPassword', 'confirmNewPassword', 'token', 'email'],
    texts: ['newPassword', 'token', 'email'],
  })),
  { method: 'POST', path: '/api/operators/confirm-email', valid: { token }, required: ['token'], texts: ['token'] },
  { method: 'POST', path: '/api/operators/renew-token', valid: { renewalToken: token, workspaceId: 1 }, required: ['renewalToken'], texts: ['renewalToken'] },
  { method: 'POST', path: '/api/operators/change-password', auth: true, valid: { password: '123456', newPassword: '123456', confirmNewPassword: '123456' }, required: ['password', 'newPassword', 'confirmNewPassword'], texts: ['password', 'newPassword'] },
  { method: 'PUT', path: '/api/operators/profile', auth: true, valid: { name: 'Nome' }, required: ['name'], texts: ['name', 'phone', 'avatar'] },
  { method: 'PUT', path: '/api/session', auth: true, valid: { name: 'Nome' }, required: ['name'], texts: ['name', 'phone', 'avatar'] },
  { method: 'POST', path: '/api/operators/complete-register', valid: { name: 'A', email: 'a@b.com', password: '123456', token }, required: ['name', 'email', 'password', 'token'], texts: ['name', 'email', 'password', 'token'] },
  { method: 'POST', path: '/api/operators/join-workspace', valid: { operatorId: 1, workspaceId: 1, token }, required: ['operatorId', 'workspaceId', 'token'], texts: ['token'] },
  { method: 'GET', path: '/api/operators/join-workspace', query: true, valid: { operatorId: 1, workspaceId: 1, token }, required: ['operatorId', 'workspaceId', 'token'], texts: ['token'] },
  { method: 'POST', path: '/api/operator', auth: true, valid: { name: 'A', email: 'a@b.com', accessLevel: 3 }, required: ['name', 'email', 'accessLevel'], texts: ['name', 'email'] },
  { method: 'PUT', path: '/api/operator/1', auth: true, valid: { isActive: true }, required: [], texts: [], dropsUnknown: true },
  { method: 'POST', path: '/api/workspace', auth: true, valid: { name: 'W' }, required: ['name'], texts: ['name'] },
  { method: 'PUT', path: '/api/workspace', auth: true, valid: { name: 'W' }, required: ['name'], texts: ['name', 'workspace', 'avatar', 'timeZone'] },
];

describe('request validation of the account and workspace endpoints', () => {
  let api: TestApi;
  let owner: TestOperator;

  before(async () => {
    api = await startTestApi();
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  async function send(e: Endpoint, body: unknown, rawBody?: string) {
    await api.deps.rateLimiter.reset();
    const tokenOpt = e.auth ? { token: owner.token } : {};
    if (e.query) {
      const qs = new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      return api.request(e.method, `${e.path}?${qs}`, tokenOpt);
    }
    return api.request(e.method, e.path, { ...tokenOpt, ...(rawBody !== undefined ? { rawBody } : { body }) });
  }

  for (const e of ENDPOINTS) {
    describe(`${e.method} ${e.path}`, () => {
      it('names every missing required field with "Campo obrigatório."', async () => {
        const res = await send(e, {});
        if (e.required.length === 0) {
          expect(res.status).to.not.equal(500);
          return;
        }
        expectError(res, 400, 'ValidationError');
        const f = fieldErrors(res);
        for (const key of e.required) expect(f[key], key).to.include('Campo obrigatório.');
      });

      it('refuses wrong types field by field', async () => {
        // A query string carries only text, so there "wrong type" means text that is not an id or a token.
        const wrongValue = (v: unknown) => (e.query ? 'não é isso' : typeof v === 'string' ? 12345 : 'texto');
        const wrong = Object.fromEntries(Object.entries(e.valid).map(([k, v]) => [k, wrongValue(v)]));
        const res = await send(e, wrong);
        expectError(res, 400, 'ValidationError');
        expect(Object.keys(fieldErrors(res)).sort()).to.deep.equal(Object.keys(e.valid).sort());
      });

      it('caps the length of text fields', async () => {
        for (const key of e.texts) {
          const res = await send(e, { ...e.valid, [key]: 'a'.repeat(5000) });
          expectError(res, 400, 'ValidationError');
          expect(fieldErrors(res), key).to.have.property(key);
        }
      });

      it(e.dropsUnknown ? 'drops unknown fields' : 'refuses unknown fields with "Campo não permitido."', async () => {
        const res = await send(e, { ...e.valid, isAdmin: true });
        if (e.dropsUnknown) {
          expect(res.status).to.not.equal(400);
          return;
        }
        expectError(res, 400, 'ValidationError');
        expect(fieldErrors(res).isAdmin).to.deep.equal(['Campo não permitido.']);
      });

      if (!e.query) {
        it('answers malformed JSON and non-object bodies with 400 in the error shape', async () => {
          for (const raw of ['{"email": ', '[1, 2]', '"texto"', 'null', '42']) {
            const res = await send(e, undefined, raw);
            expectError(res, 400, 'ValidationError');
            expect(res.body.errors[0].descriptions[0], raw).to.be.a('string');
          }
        });
      }
    });
  }

  it('tells malformed JSON apart from a non-object body', async () => {
    const login = ENDPOINTS[1];
    expect((await send(login, undefined, '{"email": ')).body.errors[0].descriptions).to.deep.equal(['JSON malformado no corpo da requisição.']);
    expect((await send(login, undefined, '[1]')).body.errors[0].descriptions).to.deep.equal(['O corpo da requisição deve ser um objeto JSON.']);
  });
});
