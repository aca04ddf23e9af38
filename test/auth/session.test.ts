import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { expectError, fieldErrors, signUp } from './helpers';

describe('sessions: renewal, workspace switch and profile', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  const renew = (body: Record<string, unknown>) => api.request('POST', '/api/operators/renew-token', { body });

  describe('POST /api/operators/renew-token', () => {
    it('answers a fresh session and rotates the renewal token: the old one stops working', async () => {
      const s = await signUp(api);
      const res = await renew({ renewalToken: s.renewalToken });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const ws = res.body.data.workspace;
      expect(ws.workspaceId).to.equal(s.workspaceId);
      expect(ws.renewalToken).to.be.a('string').and.not.equal(s.renewalToken);
      expect(ws).to.have.keys(['workspaceId', 'workspace', 'accessLevel', 'token', 'renewalToken', 'customerIdentifier', 'avatar', 'powerUps', 'subscription']);
      expect((await api.request('GET', '/api/workspace', { token: ws.token })).status).to.equal(200);

      expectError(await renew({ renewalToken: s.renewalToken }), 401, 'AuthenticationError');
      expect((await renew({ renewalToken: ws.renewalToken })).status).to.equal(200);
    });

    it('stores renewal tokens only hashed', async () => {
      const s = await signUp(api);
      const rows = await api.deps.knex('account_tokens').where({ operatorId: s.operatorId, purpose: 'renewal' });
      expect(rows).to.have.length(1);
      expect(rows[0].tokenHash).to.match(/^[0-9a-f]{64}$/).and.not.equal(s.renewalToken);
      const days = (new Date(rows[0].expiresAt).getTime() - Date.now()) / 86_400_000;
      expect(days).to.be.closeTo(30, 0.01);
    });

    it('switches workspace with workspaceId, with the level held there', async () => {
      const s = await signUp(api);
      const other = await makeWorkspace(api.deps.knex, 'Filial Norte');
      await api.deps.knex('workspace_members').insert({ workspaceId: other.id, operatorId: s.operatorId, accessLevel: 3 });

      const res = await renew({ renewalToken: s.renewalToken, workspaceId: other.id });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const ws = res.body.data.workspace;
      expect(ws).to.include({ workspaceId: other.id, workspace: 'Filial Norte', accessLevel: 3 });
      expect(res.body.data.user.accessLevel).to.equal(3);
      const current = await api.request('GET', '/api/workspace', { token: ws.token });
      expect(current.body.data).to.include({ id: other.id, name: 'Filial Norte' });
      // A level-3 session really is level 3 there.
      expectError(await api.request('PUT', '/api/workspace', { token: ws.token, body: { name: 'Tomada' } }), 403, 'ForbiddenError');

      // And back, with the rotated token.
      const back = await renew({ renewalToken: ws.renewalToken, workspaceId: String(s.workspaceId) });
      expect(back.body.data.workspace).to.include({ workspaceId: s.workspaceId, accessLevel: 10 });
    });

    it("answers 404 when switching to a workspace one is not an active member of, and keeps the token usable", async () => {
      const s = await signUp(api);
      const foreign = await makeWorkspace(api.deps.knex);
      expectError(await renew({ renewalToken: s.renewalToken, workspaceId: foreign.id }), 404, 'NotFoundError');
      const inactive = await makeWorkspace(api.deps.knex);
      await api.deps.knex('workspace_members').insert({ workspaceId: inactive.id, operatorId: s.operatorId, accessLevel: 6, isActive: false });
      expectError(await renew({ renewalToken: s.renewalToken, workspaceId: inactive.id }), 404, 'NotFoundError');
      expect((await renew({ renewalToken: s.renewalToken })).status).to.equal(200);
    });

    it('refuses an unknown, expired or malformed renewal token', async () => {
      const s = await signUp(api);
      expectError(await renew({ renewalToken: 'A'.repeat(43) }), 401, 'AuthenticationError');
      await api.deps.knex('account_tokens').where({ operatorId: s.operatorId, purpose: 'renewal' }).update({ expiresAt: new Date(Date.now() - 1) });
      expectError(await renew({ renewalToken: s.renewalToken }), 401, 'AuthenticationError');
      const bad = await renew({ renewalToken: 'not a token!', workspaceId: 'x' });
      expectError(bad, 400, 'ValidationError');
      expect(fieldErrors(bad)).to.have.keys(['renewalToken', 'workspaceId']);
    });

    it('no longer renews into a workspace where the member was deactivated', async () => {
      const s = await signUp(api);
      await api.deps.knex('workspace_members').where({ workspaceId: s.workspaceId, operatorId: s.operatorId }).update({ isActive: false });
      expectError(await renew({ renewalToken: s.renewalToken }), 401, 'AuthenticationError');
    });
  });

  describe('profile: GET/PUT /api/session and /api/operators/profile', () => {
    it('answers the user object with the e-mail on both paths', async () => {
      const s = await signUp(api, { name: 'Bruno Dias' });
      for (const path of ['/api/session', '/api/operators/profile']) {
        const res = await api.request('GET', path, { token: s.token });
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.include({ id: s.operatorId, name: 'Bruno Dias', email: s.email, accessLevel: 10, isActive: true });
        expect(res.body.data.workspaces).to.have.length(1);
      }
    });

    it('updates name, phone and avatar; the e-mail is read-only', async () => {
      const s = await signUp(api);
      const res = await api.request('PUT', '/api/operators/profile', {
        token: s.token,
        body: { name: '  Carla Nunes ', phone: '+55 (11) 99999-0000', avatar: 'avatars/carla.png', email: s.email },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({ name: 'Carla Nunes', phone: '+55 (11) 99999-0000', avatar: 'avatars/carla.png', email: s.email });

      const viaSession = await api.request('PUT', '/api/session', { token: s.token, body: { name: 'Carla N.', phone: '' } });
      expect(viaSession.status).to.equal(200);
      expect(viaSession.body.data).to.deep.include({ name: 'Carla N.', phone: null, avatar: 'avatars/carla.png' });

      const email = await api.request('PUT', '/api/session', { token: s.token, body: { name: 'Carla', email: 'outro@exemplo.com.br' } });
      expectError(email, 400, 'ValidationError');
      expect(fieldErrors(email)).to.deep.equal({ email: ['O e-mail não pode ser alterado.'] });
      const row = await api.deps.knex('operators').where({ id: s.operatorId }).first();
      expect(row.email).to.equal(s.email);
    });

    it('requires the name and refuses unsafe avatars and unknown fields', async () => {
      const s = await signUp(api);
      const res = await api.request('PUT', '/api/operators/profile', {
        token: s.token,
        body: { name: ' ', avatar: 'javascript:alert(1)', verificationLevel: 2, accessLevel: 10 },
      });
      expectError(res, 400, 'ValidationError');
      expect(fieldErrors(res)).to.deep.equal({
        name: ['Campo obrigatório.'],
        avatar: ['Avatar inválido.'],
        verificationLevel: ['Campo não permitido.'],
        accessLevel: ['Campo não permitido.'],
      });
    });

    it('requires a session', async () => {
      expectError(await api.request('GET', '/api/session'), 401, 'AuthenticationError');
      expectError(await api.request('PUT', '/api/operators/profile', { body: { name: 'x' } }), 401, 'AuthenticationError');
      const ws = await makeWorkspace(api.deps.knex);
      const op = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      expect((await api.request('GET', '/api/operators/profile', { token: op.token })).body.data.accessLevel).to.equal(3);
    });
  });
});
