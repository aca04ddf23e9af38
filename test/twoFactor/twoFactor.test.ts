import { expect } from 'chai';
import { openSecret } from '../../api/channels/secretBox';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { expectError, fieldErrors, linkParams, waitForMail } from '../auth/helpers';
import { codeAt, codeStep, enableTwoFactor, letTimePass, login, passwordStep, wrongCode } from './helpers';

describe('two-factor login (TOTP)', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  async function member(level: 2 | 3 | 6 | 9 | 10 = 10, ws?: { id: number; name: string }): Promise<TestOperator> {
    return makeOperator(api.deps.knex, api.config.jwtSecret, ws ?? (await makeWorkspace(api.deps.knex)), level);
  }
  const status = async (token: string) => (await api.request('GET', '/api/operators/two-factor', { token })).body.data;

  describe('enabling from the profile', () => {
    it('starts with a QR code URI and its secret, stored sealed with the channel-secrets key, not yet enabled', async () => {
      const op = await member();
      const res = await api.request('POST', '/api/operators/two-factor/setup', { token: op.token, body: {} });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { secret, otpauthUri } = res.body.data;
      expect(secret).to.match(/^[A-Z2-7]{32}$/);
      const uri = new URL(otpauthUri);
      expect(uri.protocol).to.equal('otpauth:');
      expect(uri.host).to.equal('totp');
      expect(decodeURIComponent(uri.pathname)).to.equal(`/Balcão:${op.email}`);
      expect(uri.searchParams.get('secret')).to.equal(secret);
      expect(uri.searchParams.get('issuer')).to.equal('Balcão');

      const row = await api.deps.knex('operatorTwoFactor').where({ operatorId: op.id }).first();
      expect(row.secretSealed).to.match(/^v1\./).and.not.include(secret);
      expect(openSecret(api.config, row.secretSealed)).to.equal(secret);
      expect(row.enabledAt).to.equal(null);
      expect(await status(op.token)).to.deep.include({ enabled: false, backupCodesLeft: 0 });
      // Not enabled yet: the password alone still logs in.
      expect((await login(api, op.email, op.password)).body.data).to.have.property('workspace');
    });

    it('turns on with the first code of the app, answers 10 backup codes once (stored as hashes) and a fresh session, ending the others', async () => {
      const op = await member();
      const setup = await api.request('POST', '/api/operators/two-factor/setup', { token: op.token, body: {} });
      const secret = setup.body.data.secret as string;

      const wrong = await api.request('POST', '/api/operators/two-factor/enable', { token: op.token, body: { code: await wrongCode(secret) } });
      expectError(wrong, 400, 'ValidationError');
      expect(fieldErrors(wrong)).to.have.key('code');
      const notDigits = await api.request('POST', '/api/operators/two-factor/enable', { token: op.token, body: { code: 'abc' } });
      expect(fieldErrors(notDigits).code).to.deep.equal(['Digite os 6 dígitos mostrados no aplicativo autenticador.']);

      const res = await api.request('POST', '/api/operators/two-factor/enable', { token: op.token, body: { code: await codeAt(secret) } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { backupCodes, session } = res.body.data;
      expect(backupCodes).to.have.length(10);
      for (const c of backupCodes) expect(c).to.match(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(new Set(backupCodes).size).to.equal(10);
      const stored = await api.deps.knex('operatorBackupCodes').where({ operatorId: op.id });
      expect(stored).to.have.length(10);
      for (const row of stored) {
        expect(row.codeHash).to.match(/^\$argon2id\$/);
        for (const c of backupCodes) expect(row.codeHash).not.to.include(c.replace('-', ''));
      }

      // The session the call opened works; the one that asked (password only) no longer does.
      expectError(await api.request('GET', '/api/operators/profile', { token: op.token }), 401, 'AuthenticationError');
      expect(await status(session.workspace.token)).to.deep.include({ enabled: true, backupCodesLeft: 10 });
      // Enabling twice is refused; the secret is never replaced while enabled.
      expectError(await api.request('POST', '/api/operators/two-factor/setup', { token: session.workspace.token, body: {} }), 409, 'ConflictError');
    });

    it('refuses the profile calls to the workspace API token (they are the person’s own)', async () => {
      const op = await member(10);
      const gen = await api.request('POST', '/api/workspace/secrets', { token: op.token });
      expect(gen.status, JSON.stringify(gen.body)).to.be.oneOf([200, 201]);
      const apiToken = gen.body.data.apiToken as string;
      expectError(await api.request('POST', '/api/operators/two-factor/setup', { token: apiToken, body: {} }), 403, 'ForbiddenError');
      expectError(await api.request('PUT', '/api/workspace/two-factor', { token: apiToken, body: { required: false } }), 403, 'ForbiddenError');
    });
  });

  describe('login with a code', () => {
    it('asks for the code after the right password (no session yet), then opens the session with it', async () => {
      const op = await member();
      const { secret } = await enableTwoFactor(api, op.token);
      const res = await login(api, op.email, op.password);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.keys(['twoFactor']);
      expect(res.body.data.twoFactor).to.include({ step: 'code' });
      expect(JSON.stringify(res.body)).not.to.match(/"token"/);
      // A wrong password still says only that.
      expectError(await login(api, op.email, 'errada'), 401, 'AuthenticationError');

      const challengeToken = res.body.data.twoFactor.challengeToken;
      const wrong = await codeStep(api, challengeToken, '12345');
      expect(fieldErrors(wrong)).to.have.key('code');
      const ok = await codeStep(api, challengeToken, await codeAt(secret, 1));
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.data.workspace.workspaceId).to.equal(op.workspaceId);
      expect((await api.request('GET', '/api/operators/profile', { token: ok.body.data.workspace.token })).status).to.equal(200);
      // The challenge is spent with the session.
      await letTimePass(api, op.id);
      expectError(await codeStep(api, challengeToken, await codeAt(secret)), 401, 'AuthenticationError');
    });

    it('never accepts a code twice within its window, nor one older than the last accepted', async () => {
      const op = await member();
      const { secret } = await enableTwoFactor(api, op.token);
      const next = await codeAt(secret, 1);
      expect((await codeStep(api, await passwordStep(api, op.email, op.password), next)).status).to.equal(200);

      const replay = await codeStep(api, await passwordStep(api, op.email, op.password), next);
      expectError(replay, 400, 'ValidationError');
      expect(fieldErrors(replay).code).to.deep.equal(['Este código já foi usado. Espere o próximo código aparecer no aplicativo.']);
      // The code of the current step (the one enabling used, or earlier than the last accepted) is refused too.
      const older = await codeStep(api, await passwordStep(api, op.email, op.password), await codeAt(secret, 0));
      expect(fieldErrors(older).code[0]).to.match(/já foi usado/);
      const row = await api.deps.knex('operatorTwoFactor').where({ operatorId: op.id }).first();
      expect(Number(row.lastUsedStep)).to.equal(Math.floor(Date.now() / 1000 / 30) + 1, 'the step of the last accepted code is stored');
    });

    it('accepts the same code only once when two requests race with it', async () => {
      const op = await member();
      const { secret } = await enableTwoFactor(api, op.token);
      const [c1, c2] = [await passwordStep(api, op.email, op.password), await passwordStep(api, op.email, op.password)];
      const code = await codeAt(secret, 1);
      const results = await Promise.all([codeStep(api, c1, code), codeStep(api, c2, code)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 400]);
    });

    it('accepts each backup code once, typed with or without the dash and in capitals', async () => {
      const op = await member();
      const { backupCodes } = await enableTwoFactor(api, op.token);
      const first = await codeStep(api, await passwordStep(api, op.email, op.password), backupCodes[0].toUpperCase().replace('-', ' '));
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(await status(first.body.data.workspace.token)).to.deep.include({ backupCodesLeft: 9 });

      const again = await codeStep(api, await passwordStep(api, op.email, op.password), backupCodes[0]);
      expectError(again, 400, 'ValidationError');
      expect(fieldErrors(again).code).to.deep.equal(['Código incorreto. Confira o aplicativo autenticador e tente de novo.']);
      expect((await codeStep(api, await passwordStep(api, op.email, op.password), backupCodes[1])).status).to.equal(200);
      const used = await api.deps.knex('operatorBackupCodes').where({ operatorId: op.id }).whereNotNull('usedAt').count({ n: '*' });
      expect(Number(used[0].n)).to.equal(2);
    });

    it('limits wrong codes like logins: five per challenge, then five per account in 15 minutes (429 with Retry-After) even with the right code', async () => {
      const op = await member();
      const { secret } = await enableTwoFactor(api, op.token);
      const challenge = await passwordStep(api, op.email, op.password);
      for (let i = 0; i < 5; i++) expectError(await codeStep(api, challenge, await wrongCode(secret)), 400, 'ValidationError');
      // The challenge is spent after five wrong codes: the password is asked again.
      const spent = await codeStep(api, challenge, await codeAt(secret, 1));
      expectError(spent, 401, 'AuthenticationError');
      expect(spent.body.errors[0].descriptions).to.deep.equal(['A verificação expirou. Entre de novo com seu e-mail e senha.']);

      const fresh = await passwordStep(api, op.email, op.password);
      const limited = await codeStep(api, fresh, await codeAt(secret, 1));
      expectError(limited, 429, 'RateLimitError');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 900);
      // Once the window has room again (here: emptied), the right code opens the session.
      await api.deps.rateLimiter.reset();
      expect((await codeStep(api, fresh, await codeAt(secret, 1))).status).to.equal(200);
    });

    it('shares the account window with the profile: wrong codes on disable block the login step too', async () => {
      const op = await member();
      const { secret, token } = await enableTwoFactor(api, op.token);
      for (let i = 0; i < 5; i++) expectError(await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: await wrongCode(secret) } }), 400, 'ValidationError');
      expectError(await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: await codeAt(secret, 1) } }), 429, 'RateLimitError');
      expectError(await codeStep(api, await passwordStep(api, op.email, op.password), await codeAt(secret, 1)), 429, 'RateLimitError');
    });

    it('keeps two-factor login after a password reset by e-mail', async () => {
      const op = await member();
      const { secret } = await enableTwoFactor(api, op.token);
      expect((await api.request('POST', '/api/operators/forgot-password', { body: { email: op.email } })).status).to.equal(200);
      const mail = await waitForMail(api, op.email, '/user/reset');
      const link = linkParams(mail.link);
      const reset = await api.request('POST', '/api/operators/reset-password', {
        body: { newPassword: 'nova-senha-9', confirmNewPassword: 'nova-senha-9', token: link.get('token'), email: op.email },
      });
      expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
      const res = await login(api, op.email, 'nova-senha-9');
      expect(res.body.data).to.have.keys(['twoFactor']);
      expect((await codeStep(api, res.body.data.twoFactor.challengeToken, await codeAt(secret, 1))).status).to.equal(200);
    });
  });

  describe('disabling', () => {
    it('turns off with a current code: secret and backup codes deleted, the password alone logs in again', async () => {
      const op = await member();
      const { secret, token } = await enableTwoFactor(api, op.token);
      const wrong = await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: await wrongCode(secret) } });
      expect(fieldErrors(wrong)).to.have.key('code');
      const res = await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: await codeAt(secret, 1) } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.include({ enabled: false, backupCodesLeft: 0, signedOut: false });
      expect(await api.deps.knex('operatorTwoFactor').where({ operatorId: op.id })).to.have.length(0);
      expect(await api.deps.knex('operatorBackupCodes').where({ operatorId: op.id })).to.have.length(0);
      expect((await login(api, op.email, op.password)).body.data).to.have.property('workspace');
      expectError(await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: await codeAt(secret, 1) } }), 409, 'ConflictError');
    });

    it('turns off with a backup code too (the phone is lost)', async () => {
      const op = await member();
      const { backupCodes, token } = await enableTwoFactor(api, op.token);
      const res = await api.request('POST', '/api/operators/two-factor/disable', { token, body: { code: backupCodes[3] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.enabled).to.equal(false);
    });

    it('replaces the backup codes with a current code: the old ones stop working', async () => {
      const op = await member();
      const { secret, backupCodes, token } = await enableTwoFactor(api, op.token);
      const res = await api.request('POST', '/api/operators/two-factor/backup-codes', { token, body: { code: await codeAt(secret, 1) } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const fresh = res.body.data.backupCodes as string[];
      expect(fresh).to.have.length(10);
      expect(fresh).not.to.include.members([backupCodes[0]]);
      expect(fieldErrors(await codeStep(api, await passwordStep(api, op.email, op.password), backupCodes[0]))).to.have.key('code');
      expect((await codeStep(api, await passwordStep(api, op.email, op.password), fresh[0])).status).to.equal(200);
    });
  });

  describe('required by the workspace owner', () => {
    it('lets only the owner require it, and only once the owner has it on', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await member(10, ws);
      const admin = await member(9, ws);
      const agent = await member(3, ws);
      expectError(await api.request('GET', '/api/workspace/two-factor', { token: agent.token }), 403, 'ForbiddenError');
      expectError(await api.request('PUT', '/api/workspace/two-factor', { token: admin.token, body: { required: true } }), 403, 'ForbiddenError');
      const early = await api.request('PUT', '/api/workspace/two-factor', { token: owner.token, body: { required: true } });
      expectError(early, 409, 'ConflictError');
      expect(fieldErrors(early).required).to.deep.equal(['Ative a verificação em duas etapas no seu perfil antes de exigi-la da equipe.']);

      const { token } = await enableTwoFactor(api, owner.token);
      const res = await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.required).to.equal(true);
      const byId = Object.fromEntries((res.body.data.members as { id: number; enabled: boolean }[]).map((m) => [m.id, m.enabled]));
      expect(byId).to.deep.equal({ [owner.id]: true, [admin.id]: false, [agent.id]: false });
      const seen = await api.request('GET', '/api/workspace/two-factor', { token: admin.token });
      expect(seen.body.data.required).to.equal(true);
    });

    it('sends a member without it to the setup at login (no session before), then asks for codes from then on', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await member(10, ws);
      const agent = await member(3, ws);
      const { token } = await enableTwoFactor(api, owner.token);
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });

      const res = await login(api, agent.email, agent.password);
      expect(res.body.data).to.have.keys(['twoFactor']);
      expect(res.body.data.twoFactor).to.include({ step: 'setup', workspace: ws.name });
      const challengeToken = res.body.data.twoFactor.challengeToken;
      // A setup challenge is not a code challenge.
      expectError(await codeStep(api, challengeToken, '123456'), 401, 'AuthenticationError');

      const setup = await api.request('POST', '/api/operators/login/two-factor/setup', { body: { challengeToken } });
      expect(setup.status, JSON.stringify(setup.body)).to.equal(200);
      const secret = setup.body.data.secret as string;
      const wrong = await api.request('POST', '/api/operators/login/two-factor/enable', { body: { challengeToken, code: await wrongCode(secret) } });
      expect(fieldErrors(wrong)).to.have.key('code');
      const done = await api.request('POST', '/api/operators/login/two-factor/enable', { body: { challengeToken, code: await codeAt(secret) } });
      expect(done.status, JSON.stringify(done.body)).to.equal(200);
      expect(done.body.data.backupCodes).to.have.length(10);
      expect(done.body.data.session.workspace.workspaceId).to.equal(ws.id);
      expect((await api.request('GET', '/api/operators/profile', { token: done.body.data.session.workspace.token })).status).to.equal(200);

      const again = await login(api, agent.email, agent.password);
      expect(again.body.data.twoFactor.step).to.equal('code');
    });

    it('lets a member of a requiring workspace change phone: turning it off ends every session, and the next login is the setup again', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await member(10, ws);
      const agent = await member(3, ws);
      const { token } = await enableTwoFactor(api, owner.token);
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });
      const mine = await enableTwoFactor(api, agent.token);
      const status0 = await status(mine.token);
      expect(status0.requiredBy).to.deep.equal([{ workspaceId: ws.id, workspace: ws.name }]);

      const off = await api.request('POST', '/api/operators/two-factor/disable', { token: mine.token, body: { code: mine.backupCodes[0] } });
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
      expect(off.body.data).to.deep.include({ enabled: false, signedOut: true });
      expectError(await api.request('GET', '/api/operators/profile', { token: mine.token }), 401, 'AuthenticationError');
      expectError(await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: mine.renewalToken } }), 401, 'AuthenticationError');
      expect((await login(api, agent.email, agent.password)).body.data.twoFactor.step).to.equal('setup');

      // Outside a requiring workspace, turning it off keeps the session.
      const alone = await member(10);
      const e = await enableTwoFactor(api, alone.token);
      const kept = await api.request('POST', '/api/operators/two-factor/disable', { token: e.token, body: { code: e.backupCodes[0] } });
      expect(kept.body.data.signedOut).to.equal(false);
      expect((await api.request('GET', '/api/operators/profile', { token: e.token })).status).to.equal(200);
    });

    it('ends a session opened before the requirement at its next renewal, saying why', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await member(10, ws);
      const agent = await member(3, ws);
      const agentLogin = await login(api, agent.email, agent.password);
      const renewalToken = agentLogin.body.data.workspace.renewalToken;
      const { token } = await enableTwoFactor(api, owner.token);
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });

      const renew = await api.request('POST', '/api/operators/renew-token', { body: { renewalToken } });
      expectError(renew, 401, 'AuthenticationError');
      expect(renew.body.errors[0].descriptions[0]).to.equal(`O workspace ${ws.name} passou a exigir a verificação em duas etapas. Entre de novo para ativá-la.`);
      // The owner turning it off lets the same renewal through.
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: false } });
      expect((await api.request('POST', '/api/operators/renew-token', { body: { renewalToken } })).status).to.equal(200);
    });

    it('sends an invitee who registers into a requiring workspace to the setup instead of a session', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await member(10, ws);
      const { token } = await enableTwoFactor(api, owner.token);
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });
      const email = `convidado-${Date.now()}@exemplo.com.br`;
      const invite = await api.request('POST', '/api/operator', { token, body: { name: 'Convidado', email, accessLevel: 3 } });
      expect(invite.status, JSON.stringify(invite.body)).to.be.oneOf([200, 201]);
      const mail = await waitForMail(api, email, '/user/join/register');
      const link = linkParams(mail.link);
      const res = await api.request('POST', '/api/operators/complete-register', { body: { name: 'Convidado', email, password: 'senha-nova-1', token: link.get('token') } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.have.keys(['twoFactor']);
      expect(res.body.data.twoFactor).to.include({ step: 'setup', workspace: ws.name });
    });
  });

  describe('tenant isolation', () => {
    it("applies a workspace's requirement to that workspace only: another workspace's member logs in with the password, and a member of both cannot switch into it without the setup", async () => {
      const wsA = await makeWorkspace(api.deps.knex);
      const wsB = await makeWorkspace(api.deps.knex);
      const ownerA = await member(10, wsA);
      const ownerB = await member(10, wsB);
      const onlyB = await member(3, wsB);
      // Member of B first (their login enters B), and of A.
      const both = await member(3, wsB);
      await api.deps.knex('workspaceMembers').insert({ workspaceId: wsA.id, operatorId: both.id, accessLevel: 3 });
      const { token } = await enableTwoFactor(api, ownerA.token);
      await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } });

      expect((await api.deps.knex('workspaces').where({ id: wsB.id }).first()).requireTwoFactor).to.equal(false);
      expect((await login(api, onlyB.email, onlyB.password)).body.data.workspace.workspaceId).to.equal(wsB.id);
      const inB = await login(api, both.email, both.password);
      expect(inB.body.data.workspace.workspaceId).to.equal(wsB.id);
      const sw = await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: inB.body.data.workspace.renewalToken, workspaceId: wsA.id } });
      expectError(sw, 403, 'ForbiddenError');
      expect(sw.body.errors[0].descriptions[0]).to.equal(`O workspace ${wsA.name} exige a verificação em duas etapas. Ative-a em Configurações › Perfil para entrar nele.`);

      // Each owner's screen lists its own members only, and changes its own workspace only.
      const listB = await api.request('GET', '/api/workspace/two-factor', { token: ownerB.token });
      expect(listB.body.data.required).to.equal(false);
      expect((listB.body.data.members as { id: number }[]).map((m) => m.id).sort()).to.deep.equal([ownerB.id, onlyB.id, both.id].sort());
      const { token: tokenB } = await enableTwoFactor(api, ownerB.token);
      await api.request('PUT', '/api/workspace/two-factor', { token: tokenB, body: { required: false } });
      expect((await api.deps.knex('workspaces').where({ id: wsA.id }).first()).requireTwoFactor).to.equal(true);
    });

    it("never lets one person's code or challenge open another person's session", async () => {
      const a = await member();
      const b = await member();
      const ea = await enableTwoFactor(api, a.token);
      await enableTwoFactor(api, b.token);
      const challengeB = await passwordStep(api, b.email, b.password);
      expect(fieldErrors(await codeStep(api, challengeB, await codeAt(ea.secret, 1)))).to.have.key('code');
      expect(fieldErrors(await codeStep(api, challengeB, ea.backupCodes[0]))).to.have.key('code');
    });
  });
});
