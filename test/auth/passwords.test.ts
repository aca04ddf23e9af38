import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { expectError, fieldErrors, linkParams, login, mailsTo, newEmail, signUp, waitForMail, type SignedUp } from './helpers';

const RESET_PATH = '/user/reset';

describe('forgotten, reset and changed passwords', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  async function requestReset(s: SignedUp, after = 0) {
    const res = await api.request('POST', '/api/operators/forgot-password', { body: { email: s.email } });
    expect(res.status).to.equal(200);
    const mail = await waitForMail(api, s.email, RESET_PATH, after);
    return linkParams(mail.link);
  }

  const reset = (body: Record<string, unknown>, method = 'POST') => api.request(method, '/api/operators/reset-password', { body });

  describe('POST /api/operators/forgot-password', () => {
    it('answers the same body whether or not the e-mail exists, and mails only real accounts', async () => {
      const s = await signUp(api);
      const ghost = newEmail('fantasma');
      const known = await api.request('POST', '/api/operators/forgot-password', { body: { email: s.email } });
      const unknown = await api.request('POST', '/api/operators/forgot-password', { body: { email: ghost } });
      expect(known.status).to.equal(200);
      expect(unknown.status).to.equal(200);
      expect(known.body).to.deep.equal(unknown.body);

      const mail = await waitForMail(api, s.email, RESET_PATH);
      const link = linkParams(mail.link);
      expect(link.path).to.equal('/user/reset');
      expect(mail.link!.startsWith(`${api.config.publicUrl}/user/reset?`)).to.equal(true);
      expect(link.get('email')).to.equal(s.email);
      expect(link.get('token')).to.match(/^[A-Za-z0-9_-]{43}$/);
      await new Promise((r) => setTimeout(r, 300));
      expect(mailsTo(api, ghost)).to.have.length(0);
    });

    it('keeps only the newest link valid', async () => {
      const s = await signUp(api);
      const first = await requestReset(s);
      const second = await requestReset(s, 1);
      const old = await reset({ newPassword: 'nova-senha', confirmNewPassword: 'nova-senha', token: first.get('token'), email: s.email });
      expectError(old, 400, 'ValidationError');
      const ok = await reset({ newPassword: 'nova-senha', confirmNewPassword: 'nova-senha', token: second.get('token'), email: s.email });
      expect(ok.status).to.equal(200);
    });
  });

  describe('POST and PUT /api/operators/reset-password', () => {
    it('sets the new password from the mailed link, ends older sessions and revokes renewal tokens', async () => {
      const s = await signUp(api);
      const link = await requestReset(s);
      const res = await reset({ newPassword: 'senha-nova-1', confirmNewPassword: 'senha-nova-1', token: link.get('token'), email: link.get('email') }, 'PUT');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);

      expectError(await api.request('GET', '/api/session', { token: s.token }), 401, 'AuthenticationError');
      expectError(await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: s.renewalToken } }), 401, 'AuthenticationError');
      expectError(await login(api, s.email, s.password), 401, 'AuthenticationError');
      const fresh = await login(api, s.email, 'senha-nova-1');
      expect(fresh.status).to.equal(200);
      expect((await api.request('GET', '/api/session', { token: fresh.body.data.workspace.token })).status).to.equal(200);
      // Following the link proved the e-mail.
      expect(fresh.body.data.user.verificationLevel).to.equal(2);
    });

    it('accepts a token once only', async () => {
      const s = await signUp(api);
      const link = await requestReset(s);
      const body = { newPassword: 'primeira', confirmNewPassword: 'primeira', token: link.get('token'), email: s.email };
      expect((await reset(body)).status).to.equal(200);
      const again = await reset({ ...body, newPassword: 'segunda', confirmNewPassword: 'segunda' });
      expectError(again, 400, 'ValidationError');
      expect(fieldErrors(again)).to.have.key('token');
      expect((await login(api, s.email, 'primeira')).status).to.equal(200);
    });

    it('binds the token to the e-mail it was sent to', async () => {
      const a = await signUp(api);
      const b = await signUp(api);
      const link = await requestReset(a);
      const res = await reset({ newPassword: 'roubada', confirmNewPassword: 'roubada', token: link.get('token'), email: b.email });
      expectError(res, 400, 'ValidationError');
      expect((await login(api, b.email, b.password)).status).to.equal(200);
      // The failed attempt did not spend a's link.
      expect((await reset({ newPassword: 'legitima', confirmNewPassword: 'legitima', token: link.get('token'), email: a.email })).status).to.equal(200);
    });

    it('refuses an expired token', async () => {
      const s = await signUp(api);
      const link = await requestReset(s);
      await api.deps.knex('account_tokens').where({ operatorId: s.operatorId, purpose: 'reset_password' }).update({ expiresAt: new Date(Date.now() - 1000) });
      const res = await reset({ newPassword: 'tarde-demais', confirmNewPassword: 'tarde-demais', token: link.get('token'), email: s.email });
      expectError(res, 400, 'ValidationError');
      expect(fieldErrors(res).token[0]).to.match(/inválido ou expirado/);
    });

    it('gives the exact SPEC texts, every failing field at once', async () => {
      const res = await reset({ newPassword: '1234', confirmNewPassword: '12', token: 'abc', email: 'a@b.com' });
      expectError(res, 400, 'ValidationError');
      const f = fieldErrors(res);
      expect(f.newPassword).to.deep.equal(['Sua senha deve ter no mínimo 5 caracteres']);
      expect(f.confirmNewPassword).to.include('Sua senha deve ter no mínimo 5 caracteres');
      expect(f.confirmNewPassword).to.include('Suas senhas estão diferentes');

      const differ = await reset({ newPassword: '123456', confirmNewPassword: '654321', token: 'abc', email: 'a@b.com' });
      expect(fieldErrors(differ)).to.deep.equal({ confirmNewPassword: ['Suas senhas estão diferentes'] });

      const empty = await reset({});
      expect(fieldErrors(empty)).to.deep.equal({
        newPassword: ['Campo obrigatório.'],
        confirmNewPassword: ['Campo obrigatório.'],
        token: ['Campo obrigatório.'],
        email: ['Campo obrigatório.'],
      });
    });
  });

  describe('POST /api/operators/change-password and PUT /api/session', () => {
    it('changes the password, kills older tokens and renewal tokens at once, and keeps the caller logged in', async () => {
      const s = await signUp(api);
      const other = await login(api, s.email, s.password); // a second device
      const res = await api.request('POST', '/api/operators/change-password', {
        token: s.token,
        body: { password: s.password, newPassword: 'trocada-123', confirmNewPassword: 'trocada-123' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const fresh = res.body.data.workspace;
      expect(res.body.data.user.email).to.equal(s.email);
      expect(fresh.workspaceId).to.equal(s.workspaceId);

      for (const token of [s.token, other.body.data.workspace.token]) {
        expectError(await api.request('GET', '/api/session', { token }), 401, 'AuthenticationError');
      }
      for (const renewalToken of [s.renewalToken, other.body.data.workspace.renewalToken]) {
        expectError(await api.request('POST', '/api/operators/renew-token', { body: { renewalToken } }), 401, 'AuthenticationError');
      }
      expect((await api.request('GET', '/api/session', { token: fresh.token })).status).to.equal(200);
      expect((await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: fresh.renewalToken } })).status).to.equal(200);
      expect((await login(api, s.email, 'trocada-123')).status).to.equal(200);
    });

    it('answers 400 on key password when the current password is wrong, changing nothing', async () => {
      const s = await signUp(api);
      const res = await api.request('POST', '/api/operators/change-password', {
        token: s.token,
        body: { password: 'nao-e-a-minha', newPassword: 'trocada-123', confirmNewPassword: 'trocada-123' },
      });
      expectError(res, 400, 'ValidationError');
      expect(fieldErrors(res)).to.deep.equal({ password: ['Senha atual incorreta.'] });
      expect((await api.request('GET', '/api/session', { token: s.token })).status).to.equal(200);
    });

    it('gives the SPEC texts for missing, short and differing passwords', async () => {
      const s = await signUp(api);
      const missing = await api.request('POST', '/api/operators/change-password', { token: s.token, body: {} });
      expect(fieldErrors(missing)).to.deep.equal({
        password: ['Campo obrigatório.'],
        newPassword: ['Campo obrigatório.'],
        confirmNewPassword: ['Campo obrigatório.'],
      });
      const short = await api.request('POST', '/api/operators/change-password', {
        token: s.token,
        body: { password: '12345', newPassword: '12345', confirmNewPassword: '123456' },
      });
      const f = fieldErrors(short);
      expect(f.password).to.deep.equal(['Sua senha deve ter no mínimo 6 caracteres']);
      expect(f.newPassword).to.deep.equal(['Sua senha deve ter no mínimo 6 caracteres']);
      expect(f.confirmNewPassword).to.deep.equal(['Suas senhas estão diferentes']);
    });

    it('changes the password through PUT /api/session too', async () => {
      const s = await signUp(api);
      const res = await api.request('PUT', '/api/session', {
        token: s.token,
        body: { password: s.password, newPassword: 'pela-sessao', confirmNewPassword: 'pela-sessao' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectError(await api.request('GET', '/api/session', { token: s.token }), 401, 'AuthenticationError');
      expect((await api.request('GET', '/api/session', { token: res.body.data.workspace.token })).status).to.equal(200);
      expect((await login(api, s.email, 'pela-sessao')).status).to.equal(200);
    });

    it('requires a session', async () => {
      const res = await api.request('POST', '/api/operators/change-password', { body: { password: 'a', newPassword: 'b', confirmNewPassword: 'b' } });
      expectError(res, 401, 'AuthenticationError');
    });
  });
});
