import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { workflowIds } from '../../workflows/ids';
import { expectError, fieldErrors, linkParams, login, newEmail, signUp, waitForMail } from './helpers';

describe('signup, login and e-mail confirmation', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  // The per-address limits would otherwise starve later tests: every request here comes from 127.0.0.1.
  beforeEach(() => api.deps.rateLimiter.reset());

  describe('POST /api/signup', () => {
    it('creates workspace, owner, membership and a Business-priced trial in one go and answers the login shape', async () => {
      const before = Date.now();
      const s = await signUp(api, { name: 'Ana Lima', workspace: 'Padaria Pão Quente' });
      const { user, workspace } = s.body.data;
      expect(user).to.deep.include({ name: 'Ana Lima', email: s.email, phone: null, avatar: null, verificationLevel: 1, isActive: true, accessLevel: 10 });
      expect(user.workspaces).to.deep.equal([{ workspaceId: workspace.workspaceId, workspace: 'Padaria Pão Quente', avatar: null }]);
      expect(workspace).to.have.keys(['workspaceId', 'workspace', 'accessLevel', 'token', 'renewalToken', 'customerIdentifier', 'avatar', 'powerUps', 'subscription']);
      expect(workspace).to.deep.include({ workspace: 'Padaria Pão Quente', accessLevel: 10, avatar: null, powerUps: [] });
      expect(workspace.customerIdentifier).to.match(/^[0-9a-f]{24}$/);
      expect(workspace.subscription).to.include({ license: 'trial', status: 'active' });

      const sub = await api.deps.knex('subscriptions').where({ workspaceId: workspace.workspaceId }).first();
      expect(sub).to.include({ id: workspace.subscription.id, license: 'trial', agents: 5, numbers: 1, campaignUnits: 0, total: 44_900 });
      const days = (new Date(sub.expiresAt).getTime() - before) / 86_400_000;
      expect(days).to.be.closeTo(api.config.trialDays, 0.01);
      expect(new Date(workspace.subscription.expiresAt).getTime()).to.equal(new Date(sub.expiresAt).getTime());

      const member = await api.deps.knex('workspace_members').where({ workspaceId: workspace.workspaceId }).first();
      expect(member).to.include({ operatorId: user.id, accessLevel: 10, isActive: true });
      const op = await api.deps.knex('operators').where({ id: user.id }).first();
      expect(op.passwordHash).to.match(/^\$argon2id\$/);

      // The token it answers is a working session.
      const session = await api.request('GET', '/api/session', { token: workspace.token });
      expect(session.status).to.equal(200);
      expect(session.body.data.email).to.equal(s.email);
    });

    it('starts the subscription lifecycle workflow after commit', async () => {
      const s = await signUp(api);
      const client = await api.deps.temporal.client();
      const handle = client.workflow.getHandle(workflowIds.subscription(s.body.data.workspace.subscription.id));
      let description;
      for (const deadline = Date.now() + 20_000; !description && Date.now() < deadline; ) {
        description = await handle.describe().catch(() => undefined);
        if (!description) await new Promise((r) => setTimeout(r, 100));
      }
      expect(description?.type).to.equal('subscriptionLifecycle');
    });

    it('still succeeds when Temporal cannot be reached (the worker reconciles later)', async () => {
      const offline = await startTestApi({ temporalAddress: '127.0.0.1:1' });
      try {
        const s = await signUp(offline);
        expect(s.body.data.workspace.subscription.license).to.equal('trial');
      } finally {
        await offline.close();
      }
    });

    it('mails a confirmation link that verifies the e-mail once', async () => {
      const s = await signUp(api);
      const mail = await waitForMail(api, s.email, '/user/email-confirm');
      expect(mail.link!.startsWith(`${api.config.publicUrl}/user/email-confirm?token=`)).to.equal(true);
      const token = linkParams(mail.link).get('token');
      const ok = await api.request('POST', '/api/operators/confirm-email', { body: { token } });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.deep.equal({ data: { verificationLevel: 2 } });
      const profile = await api.request('GET', '/api/operators/profile', { token: s.token });
      expect(profile.body.data.verificationLevel).to.equal(2);

      const again = await api.request('POST', '/api/operators/confirm-email', { body: { token } });
      expectError(again, 400, 'ValidationError');
      expect(fieldErrors(again).token).to.deep.equal(['Link de confirmação inválido ou expirado.']);
    });

    it('refuses an e-mail already registered, whatever its capitalisation, with 409 on key email', async () => {
      const s = await signUp(api);
      const res = await api.request('POST', '/api/signup', {
        body: { name: 'Outra', workspace: 'Outra', email: s.email.toUpperCase(), password: 'outra-senha', acceptTerms: true },
      });
      expectError(res, 409, 'ConflictError');
      expect(res.body.errors[0].key).to.equal('email');
      expect(await api.deps.knex('operators').whereRaw('lower(email) = ?', [s.email]).select('id')).to.have.length(1);
    });

    it('requires acceptTerms to be true and reports every failing field at once', async () => {
      const res = await api.request('POST', '/api/signup', { body: { name: '', workspace: '', email: 'x', password: '1', acceptTerms: false } });
      expectError(res, 400, 'ValidationError');
      const f = fieldErrors(res);
      expect(f).to.have.keys(['name', 'workspace', 'email', 'password', 'acceptTerms']);
      expect(f.name).to.deep.equal(['Campo obrigatório.']);
      expect(f.password).to.deep.equal(['Sua senha deve ter no mínimo 6 caracteres']);
      expect(f.acceptTerms).to.deep.equal(['Você precisa aceitar os termos de uso.']);
    });
  });

  describe('POST /api/operators/login', () => {
    it('answers the user with active workspaces only and a session in the first active one', async () => {
      const s = await signUp(api);
      const second = await api.request('POST', '/api/workspace', { token: s.token, body: { name: 'Segunda' } });
      const third = await api.request('POST', '/api/workspace', { token: s.token, body: { name: 'Terceira' } });
      // Deactivated in the first workspace: login lands in the second, the first is no longer listed.
      await api.deps.knex('workspace_members').where({ workspaceId: s.workspaceId, operatorId: s.operatorId }).update({ isActive: false });

      const res = await login(api, s.email.toUpperCase(), s.password);
      expect(res.status).to.equal(200);
      const { user, workspace } = res.body.data;
      expect(user.workspaces.map((w: { workspaceId: number }) => w.workspaceId)).to.deep.equal([
        second.body.data.workspace.workspaceId,
        third.body.data.workspace.workspaceId,
      ]);
      expect(workspace.workspaceId).to.equal(second.body.data.workspace.workspaceId);
      expect(workspace.workspace).to.equal('Segunda');
      expect(workspace.subscription).to.have.keys(['id', 'expiresAt', 'graceEndsAt', 'license', 'status']);
      // A trial has no renewal, so no grace: the banner comes at expiresAt.
      expect(workspace.subscription.graceEndsAt).to.equal(null);
      expect(user).to.have.keys(['id', 'name', 'email', 'phone', 'avatar', 'verificationLevel', 'isActive', 'accessLevel', 'workspaces']);
    });

    it('gives the same 401 for an unknown e-mail and a wrong password', async () => {
      const s = await signUp(api);
      const wrong = await login(api, s.email, 'senha-errada');
      const unknown = await login(api, newEmail('ninguem'), 'senha-errada');
      for (const res of [wrong, unknown]) {
        expectError(res, 401, 'AuthenticationError');
        expect(res.body.errors[0].descriptions).to.deep.equal(['E-mail ou senha incorretos.']);
      }
      expect(wrong.body).to.deep.equal(unknown.body);
    });

    it('refuses an operator deactivated in every workspace with a clear message', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const op = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { isActive: false });
      const res = await login(api, op.email, op.password);
      expectError(res, 401, 'AuthenticationError');
      expect(res.body.errors[0].descriptions[0]).to.match(/desativado/);
      // Only after the right password: a wrong one still gets the generic answer.
      const wrong = await login(api, op.email, 'nao-e-essa');
      expect(wrong.body.errors[0].descriptions).to.deep.equal(['E-mail ou senha incorretos.']);
    });

    it('refuses an invited person who has not completed registration', async () => {
      const owner = await signUp(api);
      const email = newEmail('convidado');
      const invite = await api.request('POST', '/api/operator', { token: owner.token, body: { name: 'Convidado', email, accessLevel: 3 } });
      expect(invite.status).to.equal(201);
      for (const password of ['', 'qualquer-coisa']) {
        const res = await login(api, email, password);
        expect(res.status).to.be.oneOf([400, 401]);
      }
      expectError(await login(api, email, 'qualquer-coisa'), 401, 'AuthenticationError');
    });
  });

  describe('GET /api/operators/resend-email', () => {
    it('mails a new working confirmation link, and answers 400 once the e-mail is verified', async () => {
      const s = await signUp(api);
      await waitForMail(api, s.email, '/user/email-confirm');
      const res = await api.request('GET', '/api/operators/resend-email', { token: s.token });
      expect(res.status).to.equal(200);
      const mail = await waitForMail(api, s.email, '/user/email-confirm', 1);
      const confirmed = await api.request('POST', '/api/operators/confirm-email', { body: { token: linkParams(mail.link).get('token') } });
      expect(confirmed.body.data.verificationLevel).to.equal(2);

      const again = await api.request('GET', '/api/operators/resend-email', { token: s.token });
      expectError(again, 400, 'ValidationError');
      expect(again.body.errors[0].descriptions).to.deep.equal(['Seu e-mail já está confirmado.']);
    });

    it('requires a session and is rate limited per operator', async () => {
      expectError(await api.request('GET', '/api/operators/resend-email'), 401, 'AuthenticationError');
      const s = await signUp(api);
      for (let i = 0; i < 3; i++) expect((await api.request('GET', '/api/operators/resend-email', { token: s.token })).status).to.equal(200);
      const limited = await api.request('GET', '/api/operators/resend-email', { token: s.token });
      expectError(limited, 429, 'RateLimitError');
      expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
    });
  });
});
