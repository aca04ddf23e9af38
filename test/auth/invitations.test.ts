import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup } from '../inbox/factories';
import { createAccountToken } from '../../api/auth/accountTokens';
import { expectError, fieldErrors, linkParams, login, mailsTo, newEmail, signUp, waitForMail } from './helpers';

describe('invitations and member level/active changes', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  const invite = (token: string, body: Record<string, unknown>) => api.request('POST', '/api/operator', { token, body });

  describe('a new person', () => {
    it('is created waiting for registration, mailed a register link, and completes it into a session', async () => {
      const owner = await signUp(api, { name: 'Dona Rosa', workspace: 'Floricultura' });
      const email = newEmail('nova');
      const res = await invite(owner.token, { name: 'Júlia', email, accessLevel: 3, groups: [] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.deep.include({ name: 'Júlia', email, accessLevel: 3, isActive: true, verificationLevel: 0, groups: [], status: 'pending' });
      const row = await api.deps.knex('operators').where({ email }).first();
      expect(row).to.include({ verificationLevel: 0, passwordHash: null });
      expect(await api.deps.knex('workspace_members').where({ operatorId: row.id, workspaceId: owner.workspaceId }).first()).to.include({ accessLevel: 3 });

      const mail = await waitForMail(api, email, '/user/join/register');
      const link = linkParams(mail.link);
      expect(mail.link!.startsWith(`${api.config.publicUrl}/user/join/register?`)).to.equal(true);
      expect(link.get('name')).to.equal('Júlia');
      expect(link.get('email')).to.equal(email);

      const done = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Júlia Prado', email: link.get('email'), password: 'minha-senha', token: link.get('token') },
      });
      expect(done.status, JSON.stringify(done.body)).to.equal(200);
      expect(done.body.data.user).to.deep.include({ name: 'Júlia Prado', verificationLevel: 2, accessLevel: 3 });
      expect(done.body.data.workspace).to.include({ workspaceId: owner.workspaceId, workspace: 'Floricultura', accessLevel: 3 });
      expect((await login(api, email, 'minha-senha')).status).to.equal(200);

      const again = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Outra', email, password: 'outra-senha', token: link.get('token') },
      });
      expectError(again, 400, 'ValidationError');
      expect(fieldErrors(again)).to.have.key('token');
    });

    it('cannot complete with a token for another e-mail or after the invite expired', async () => {
      const owner = await signUp(api);
      const email = newEmail('expira');
      await invite(owner.token, { name: 'Paulo', email, accessLevel: 2 });
      const link = linkParams((await waitForMail(api, email, '/user/join/register')).link);
      const wrongEmail = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Paulo', email: newEmail('outro'), password: 'segredo1', token: link.get('token') },
      });
      expectError(wrongEmail, 400, 'ValidationError');
      await api.deps.knex('account_tokens').where({ purpose: 'invite', workspaceId: owner.workspaceId }).update({ expiresAt: new Date(Date.now() - 1) });
      const expired = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Paulo', email, password: 'segredo1', token: link.get('token') },
      });
      expectError(expired, 400, 'ValidationError');
      expect(fieldErrors(expired).token[0]).to.match(/Convite inválido ou expirado/);
    });
  });

  describe('someone who already has a login', () => {
    it('is mailed a join link; the accept page shows inviter and workspace; accepting creates the membership once', async () => {
      const owner = await signUp(api, { name: 'Rui Costa', workspace: 'Oficina do Rui' });
      await api.request('PUT', '/api/operators/profile', { token: owner.token, body: { name: 'Rui Costa', avatar: 'https://cdn.exemplo.com/rui.png' } });
      const guest = await signUp(api);
      const res = await invite(owner.token, { name: 'Ignorado', email: guest.email.toUpperCase(), accessLevel: 6 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const pendingId = res.body.data.id;
      expect(pendingId).to.not.equal(guest.operatorId);
      expect(await api.deps.knex('workspace_members').where({ operatorId: guest.operatorId, workspaceId: owner.workspaceId }).first()).to.equal(undefined);

      const mail = await waitForMail(api, guest.email, '/user/join-workspace');
      const link = linkParams(mail.link);
      expect(link.get('operatorId')).to.equal(String(pendingId));
      expect(link.get('workspaceId')).to.equal(String(owner.workspaceId));
      const query = new URLSearchParams({ operatorId: link.get('operatorId')!, workspaceId: link.get('workspaceId')!, token: link.get('token')! });

      const info = await api.request('GET', `/api/operators/join-workspace?${query}`);
      expect(info.status, JSON.stringify(info.body)).to.equal(200);
      expect(info.body.data).to.deep.equal({
        operatorName: 'Rui Costa',
        operatorAvatar: 'https://cdn.exemplo.com/rui.png',
        workspace: 'Oficina do Rui',
        workspaceAvatar: null,
      });

      const body = Object.fromEntries(query);
      const accepted = await api.request('POST', '/api/operators/join-workspace', { body });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(accepted.body.data).to.deep.equal({ workspaceId: owner.workspaceId, workspace: 'Oficina do Rui', accessLevel: 6 });
      const member = await api.deps.knex('workspace_members').where({ operatorId: guest.operatorId, workspaceId: owner.workspaceId }).first();
      expect(member).to.include({ accessLevel: 6, isActive: true, invitedBy: owner.operatorId });
      // The pending member the invitation created took no other workspace's invitation: it is gone.
      expect(await api.deps.knex('operators').where({ id: pendingId }).first()).to.equal(undefined);

      expectError(await api.request('POST', '/api/operators/join-workspace', { body }), 400, 'ValidationError');
      expectError(await api.request('GET', `/api/operators/join-workspace?${query}`), 400, 'ValidationError');

      // The guest can now switch into the new workspace with their renewal token.
      const switched = await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: guest.renewalToken, workspaceId: owner.workspaceId } });
      expect(switched.body.data.workspace).to.include({ workspaceId: owner.workspaceId, accessLevel: 6 });
    });

    it('refuses a token presented with another operator or workspace id', async () => {
      const owner = await signUp(api);
      const guest = await signUp(api);
      await invite(owner.token, { name: 'X', email: guest.email, accessLevel: 3 });
      const link = linkParams((await waitForMail(api, guest.email, '/user/join-workspace')).link);
      const body = { operatorId: owner.operatorId, workspaceId: owner.workspaceId, token: link.get('token') };
      expectError(await api.request('POST', '/api/operators/join-workspace', { body }), 400, 'ValidationError');
      const body2 = { operatorId: Number(link.get('operatorId')), workspaceId: guest.workspaceId, token: link.get('token') };
      expectError(await api.request('POST', '/api/operators/join-workspace', { body: body2 }), 400, 'ValidationError');
      const body3 = { operatorId: guest.operatorId, workspaceId: owner.workspaceId, token: link.get('token') };
      expectError(await api.request('POST', '/api/operators/join-workspace', { body: body3 }), 400, 'ValidationError');
    });

    it('answers 409 for someone who is already a member', async () => {
      const owner = await signUp(api);
      const ws = await api.deps.knex('workspaces').where({ id: owner.workspaceId }).first();
      const member = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const res = await invite(owner.token, { name: 'De novo', email: member.email, accessLevel: 3 });
      expectError(res, 409, 'ConflictError');
      expect(res.body.errors[0].key).to.equal('email');
    });
  });

  describe('what an invitation tells the inviter (issue 10 item 8)', () => {
    it("answers the same for an address with a login in another company as for a new one, with none of that person's data", async () => {
      const owner = await signUp(api);
      const groupId = await makeGroup(api.deps.knex, { id: owner.workspaceId, name: '' });
      const stranger = await signUp(api, { name: 'Helena Segredo' });
      const profile = await api.request('PUT', '/api/operators/profile', {
        token: stranger.token,
        body: { name: 'Helena Segredo', phone: '+55 11 99999-0000', avatar: 'https://cdn.exemplo.com/helena.png' },
      });
      expect(profile.status, JSON.stringify(profile.body)).to.equal(200);
      const fresh = newEmail('novo');

      const known = await invite(owner.token, { name: 'Nome Digitado', email: stranger.email, accessLevel: 3, groups: [groupId] });
      const unknown = await invite(owner.token, { name: 'Nome Digitado', email: fresh, accessLevel: 3, groups: [groupId] });
      for (const [res, email] of [[known, stranger.email], [unknown, fresh]] as const) {
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body.data).to.deep.equal({
          id: res.body.data.id,
          name: 'Nome Digitado',
          email,
          phone: null,
          avatar: null,
          accessLevel: 3,
          isActive: true,
          verificationLevel: 0,
          groups: [groupId],
          status: 'pending',
        });
      }
      expect(known.body.data.id).to.not.equal(stranger.operatorId);
      expect(JSON.stringify(known.body)).to.not.match(/Helena|helena\.png|99999/);

      // The members list shows both the same way too: pending, as typed, nothing of the other company.
      const list = await api.request('GET', '/api/operator?limit=100', { token: owner.token });
      const rows = list.body.data.filter((m: { email: string }) => [stranger.email, fresh].includes(m.email));
      expect(rows).to.have.length(2);
      for (const row of rows) expect(row).to.deep.include({ name: 'Nome Digitado', phone: null, avatar: null, verificationLevel: 0, groups: [groupId] });
      expect(rows.map((m: { id: number }) => m.id)).to.not.include(stranger.operatorId);
      const one = await api.request('GET', `/api/operator/${known.body.data.id}`, { token: owner.token });
      expect(one.body.data).to.deep.include({ name: 'Nome Digitado', email: stranger.email, phone: null, avatar: null });

      // Only the mails differ, each read by the address's owner alone.
      await waitForMail(api, stranger.email, '/user/join-workspace');
      await waitForMail(api, fresh, '/user/join/register');
    });

    it('inviting a pending address again renews the invitation: one pending member, the new name and level, the older link dead', async () => {
      const owner = await signUp(api);
      const email = newEmail('de-novo');
      const first = await invite(owner.token, { name: 'Primeiro Nome', email, accessLevel: 2 });
      const oldLink = linkParams((await waitForMail(api, email, '/user/join/register')).link);
      const second = await invite(owner.token, { name: 'Segundo Nome', email: email.toUpperCase(), accessLevel: 3 });
      expect(second.status, JSON.stringify(second.body)).to.equal(201);
      expect(second.body.data.id).to.equal(first.body.data.id);
      const list = await api.request('GET', '/api/operator?limit=100', { token: owner.token });
      const rows = list.body.data.filter((m: { email: string }) => m.email === email);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ name: 'Segundo Nome', accessLevel: 3 });
      const stale = await api.request('POST', '/api/operators/complete-register', { body: { name: 'X', email, password: 'segredo1', token: oldLink.get('token') } });
      expectError(stale, 400, 'ValidationError');
      const newLink = linkParams((await waitForMail(api, email, '/user/join/register', 1)).link);
      const done = await api.request('POST', '/api/operators/complete-register', { body: { name: 'Segundo Nome', email, password: 'segredo1', token: newLink.get('token') } });
      expect(done.body.data.workspace).to.include({ workspaceId: owner.workspaceId, accessLevel: 3 });
    });
  });

  describe('a pending invitation does not own the address (issue 10 item 9)', () => {
    it('its owner signs up and resets the password, then accepts from the registration link with that password', async () => {
      const owner = await signUp(api, { workspace: 'Loja Convidante' });
      const email = newEmail('dona');
      expect((await invite(owner.token, { name: 'Convidada', email, accessLevel: 6 })).status).to.equal(201);
      const registerLink = linkParams((await waitForMail(api, email, '/user/join/register')).link);

      const own = await signUp(api, { email, name: 'Dona do E-mail', workspace: 'Minha Loja' });
      expect(own.body.data.workspace.subscription).to.include({ license: 'trial', status: 'active' });
      // Signing up proves nothing about the mailbox: the invitation waits for its link.
      expect(own.body.data.user.workspaces.map((w: { workspaceId: number }) => w.workspaceId)).to.deep.equal([own.workspaceId]);

      expect((await api.request('POST', '/api/operators/forgot-password', { body: { email } })).status).to.equal(200);
      const reset = linkParams((await waitForMail(api, email, '/user/reset')).link);
      const changed = await api.request('POST', '/api/operators/reset-password', {
        body: { newPassword: 'nova-senha-1', confirmNewPassword: 'nova-senha-1', token: reset.get('token'), email },
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect((await login(api, email, 'nova-senha-1')).body.data.user.id).to.equal(own.operatorId);

      const wrong = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Outra', email, password: 'nao-e-essa', token: registerLink.get('token') },
      });
      expectError(wrong, 400, 'ValidationError');
      expect(fieldErrors(wrong).password[0]).to.match(/já tem uma conta/);
      const joined = await api.request('POST', '/api/operators/complete-register', {
        body: { name: 'Outra', email, password: 'nova-senha-1', token: registerLink.get('token') },
      });
      expect(joined.status, JSON.stringify(joined.body)).to.equal(200);
      expect(joined.body.data.user).to.include({ id: own.operatorId, name: 'Dona do E-mail', verificationLevel: 2 });
      expect(joined.body.data.workspace).to.include({ workspaceId: owner.workspaceId, workspace: 'Loja Convidante', accessLevel: 6 });
      expect(joined.body.data.user.workspaces.map((w: { workspaceId: number }) => w.workspaceId).sort()).to.deep.equal([owner.workspaceId, own.workspaceId].sort());
      expect(await api.deps.knex('operators').whereRaw('lower(email) = ?', [email]).pluck('id')).to.deep.equal([own.operatorId]);
    });

    it('an address invited by two workspaces: the first link creates the account, the second joins it with its password', async () => {
      const a = await signUp(api);
      const b = await signUp(api);
      const email = newEmail('duas');
      await invite(a.token, { name: 'Para A', email, accessLevel: 3 });
      await invite(b.token, { name: 'Para B', email, accessLevel: 2 });
      await waitForMail(api, email, '/user/join/register', 1);
      const links = mailsTo(api, email, '/user/join/register').map((m) => linkParams(m.link));
      expect(links).to.have.length(2);
      const [linkA, linkB] = links[0].get('name') === 'Para A' ? links : [links[1], links[0]];
      const first = await api.request('POST', '/api/operators/complete-register', { body: { name: 'Pessoa', email, password: 'senha-unica', token: linkA.get('token') } });
      expect(first.body.data.workspace).to.include({ workspaceId: a.workspaceId, accessLevel: 3 });
      const second = await api.request('POST', '/api/operators/complete-register', { body: { name: 'Pessoa', email, password: 'senha-unica', token: linkB.get('token') } });
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      expect(second.body.data.user.id).to.equal(first.body.data.user.id);
      expect(second.body.data.workspace).to.include({ workspaceId: b.workspaceId, accessLevel: 2 });
    });

    it("accepting by an account takes over the pending member's level, groups and assigned conversations", async () => {
      const owner = await signUp(api);
      const ws = { id: owner.workspaceId, name: '' };
      const groupId = await makeGroup(api.deps.knex, ws);
      const guest = await signUp(api);
      const res = await invite(owner.token, { name: 'Convidado', email: guest.email, accessLevel: 3, groups: [groupId] });
      const pendingId = res.body.data.id;
      const conv = await makeConversation(api.deps, await makeChannel(api.deps.knex, ws));
      const assigned = await api.request('POST', '/api/calls/transfer-operator', { token: owner.token, body: { customerPlatformId: conv.conversationId, operatorId: pendingId } });
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
      expect((await api.request('PUT', `/api/operator/${pendingId}`, { token: owner.token, body: { accessLevel: 6 } })).status).to.equal(200);

      const link = linkParams((await waitForMail(api, guest.email, '/user/join-workspace')).link);
      const body = { operatorId: Number(link.get('operatorId')), workspaceId: owner.workspaceId, token: link.get('token') };
      const accepted = await api.request('POST', '/api/operators/join-workspace', { body });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(accepted.body.data.accessLevel).to.equal(6);
      const k = api.deps.knex;
      expect(await k('workspace_members').where({ workspaceId: owner.workspaceId, operatorId: guest.operatorId }).first()).to.include({ accessLevel: 6, isActive: true });
      expect(await k('group_members').where({ groupId }).pluck('operator_id')).to.deep.equal([guest.operatorId]);
      expect((await k('customer_platforms').where({ id: conv.conversationId }).first()).operatorId).to.equal(guest.operatorId);
      expect((await k('calls').where({ id: conv.callId }).first()).operatorId).to.equal(guest.operatorId);
      expect(await k('operators').where({ id: pendingId }).first()).to.equal(undefined);
      expect((await login(api, guest.email, guest.password)).body.data.user.workspaces).to.have.length(2);
    });

    it('an invitation stored before pending members (naming the account itself) is still accepted, with its groups', async () => {
      const owner = await signUp(api);
      const groupId = await makeGroup(api.deps.knex, { id: owner.workspaceId, name: '' });
      const guest = await signUp(api);
      const token = await createAccountToken(api.deps.knex, {
        purpose: 'invite',
        operatorId: guest.operatorId,
        workspaceId: owner.workspaceId,
        accessLevel: 3,
        invitedBy: owner.operatorId,
        data: { groups: [groupId] },
      });
      const accepted = await api.request('POST', '/api/operators/join-workspace', { body: { operatorId: guest.operatorId, workspaceId: owner.workspaceId, token } });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(await api.deps.knex('group_members').where({ groupId }).pluck('operator_id')).to.deep.equal([guest.operatorId]);
    });
  });

  describe('who may invite and at which level', () => {
    let owner: TestOperator;
    let master: TestOperator;
    let agent: TestOperator;

    before(async () => {
      const ws = await makeWorkspace(api.deps.knex);
      owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
      agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    });

    it('forbids levels below 6', async () => {
      expectError(await invite(agent.token, { name: 'X', email: newEmail(), accessLevel: 2 }), 403, 'ForbiddenError');
    });

    it('refuses a level above the inviter or owner, on key accessLevel', async () => {
      const above = await invite(master.token, { name: 'X', email: newEmail(), accessLevel: 9 });
      expectError(above, 400, 'ValidationError');
      expect(fieldErrors(above)).to.have.key('accessLevel');
      const ownerLevel = await invite(owner.token, { name: 'X', email: newEmail(), accessLevel: 10 });
      expect(fieldErrors(ownerLevel)).to.have.key('accessLevel');
      expect((await invite(master.token, { name: 'Y', email: newEmail(), accessLevel: 6 })).status).to.equal(201);
      expect((await invite(owner.token, { name: 'Z', email: newEmail(), accessLevel: 9 })).status).to.equal(201);
    });
  });

  describe('PUT /api/operator/:id', () => {
    async function team() {
      const ws = await makeWorkspace(api.deps.knex);
      return {
        ws,
        owner: await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10),
        master: await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6),
        agent: await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3),
      };
    }
    const update = (token: string, id: number, body: Record<string, unknown>) => api.request('PUT', `/api/operator/${id}`, { token, body });

    it("a level change ends the member's older tokens at once; a new session works at the new level", async () => {
      const { owner, agent } = await team();
      expect((await api.request('GET', '/api/session', { token: agent.token })).status).to.equal(200);
      const res = await update(owner.token, agent.id, { accessLevel: 6 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ id: agent.id, accessLevel: 6, isActive: true });
      expectError(await api.request('GET', '/api/session', { token: agent.token }), 401, 'AuthenticationError');
      const fresh = await login(api, agent.email, agent.password);
      expect(fresh.body.data.workspace.accessLevel).to.equal(6);
      expect((await api.request('GET', '/api/session', { token: fresh.body.data.workspace.token })).status).to.equal(200);
    });

    it('deactivation ends the sessions and blocks login; reactivation lets them back in', async () => {
      const { owner, agent } = await team();
      const renewal = (await login(api, agent.email, agent.password)).body.data.workspace.renewalToken;
      expect((await update(owner.token, agent.id, { isActive: false })).body.data.isActive).to.equal(false);
      expectError(await api.request('GET', '/api/session', { token: agent.token }), 401, 'AuthenticationError');
      expectError(await api.request('POST', '/api/operators/renew-token', { body: { renewalToken: renewal } }), 401, 'AuthenticationError');
      expectError(await login(api, agent.email, agent.password), 401, 'AuthenticationError');
      await update(owner.token, agent.id, { isActive: true });
      expect((await login(api, agent.email, agent.password)).status).to.equal(200);
    });

    it('a no-op change keeps existing tokens', async () => {
      const { owner, agent } = await team();
      expect((await update(owner.token, agent.id, { accessLevel: 3, isActive: true })).status).to.equal(200);
      expect((await api.request('GET', '/api/session', { token: agent.token })).status).to.equal(200);
    });

    it('nobody edits themself or an equal or higher level (403), nor grants above their own level', async () => {
      const { owner, master, agent } = await team();
      const other = await makeOperator(api.deps.knex, api.config.jwtSecret, { id: master.workspaceId, name: '' }, 6);
      expectError(await update(master.token, master.id, { isActive: false }), 403, 'ForbiddenError');
      expectError(await update(master.token, other.id, { isActive: false }), 403, 'ForbiddenError');
      expectError(await update(master.token, owner.id, { isActive: false }), 403, 'ForbiddenError');
      expectError(await update(agent.token, agent.id, { accessLevel: 2 }), 403, 'ForbiddenError');
      const grant = await update(master.token, agent.id, { accessLevel: 9 });
      expectError(grant, 400, 'ValidationError');
      expect(fieldErrors(grant)).to.have.key('accessLevel');
    });

    it("answers 404 for another workspace's member and changes nothing", async () => {
      const a = await team();
      const b = await team();
      const res = await update(a.owner.token, b.agent.id, { isActive: false });
      expectError(res, 404, 'NotFoundError');
      expect((await api.deps.knex('workspace_members').where({ operatorId: b.agent.id }).first()).isActive).to.equal(true);
      expectError(await update(a.owner.token, 999999999, { isActive: false }), 404, 'NotFoundError');
      expectError(await update(a.owner.token, 'abc' as never, { isActive: false }), 404, 'NotFoundError');
    });
  });
});
