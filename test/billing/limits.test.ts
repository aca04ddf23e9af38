import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import {
  NO_CAMPAIGNS_IN_PLAN,
  PLAN_EXPIRED,
  PLAN_LINK,
  agentLimitReached,
  campaignLimitReached,
  campaignPlan,
  currentSubscription,
  loadUsage,
  whatsappLimitReached,
} from '../../api/billing/limits';
import { makeQrLineRow, storeUpload } from '../campaigns/helpers';

const DAY = 86_400_000;

/** A subscription row of the workspace; the plan's units as asked (defaults: Business). */
async function subscribe(knex: Knex, workspaceId: number, over: Record<string, unknown> = {}): Promise<number> {
  const [row] = await knex('subscriptions')
    .insert({ workspaceId, license: 'business', status: 'active', agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 449, expiresAt: new Date(Date.now() + 20 * DAY), ...over })
    .returning('id');
  return row.id;
}

function limitRefusal(res: { status: number; body: any }, status: number, description: string) {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  const [entry] = res.body.errors;
  expect(entry).to.deep.include({ title: 'Limite do plano', descriptions: [description], link: PLAN_LINK });
  expect(entry.type).to.equal(status === 409 ? 'ConflictError' : 'ForbiddenError');
  expect(PLAN_LINK).to.equal('/settings/billing/license');
}

describe('billing: the plan’s limits are enforced where the product grows (SPEC §5, issue 29)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;

  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  });

  const invite = (email: string, token = owner.token) => api.request('POST', '/api/operator', { token, body: { name: 'Pessoa Convidada', email, accessLevel: 3 } });
  const email = () => `${unique('convite')}@exemplo.com.br`;
  const activeMembers = async () => Number((await api.deps.knex('workspaceMembers').where({ workspaceId: ws.id, isActive: true }).count({ n: '*' }))[0].n);

  describe('agents', () => {
    it('an invitation beyond the active agents is refused naming the limit, with the link to Assinatura, and leaves nobody pending', async () => {
      await subscribe(api.deps.knex, ws.id, { agents: 2 });
      expect((await invite(email())).status).to.equal(201);
      const refused = await invite(email());
      limitRefusal(refused, 403, 'Seu plano permite 2 agentes ativos e o limite foi atingido. Desative um agente ou contrate agentes adicionais em Assinatura.');
      expect(await activeMembers()).to.equal(2);
      expect(agentLimitReached(1)).to.equal('Seu plano permite 1 agente ativo e o limite foi atingido. Desative um agente ou contrate agentes adicionais em Assinatura.');
    });

    it('renewing a pending invitation is not one more agent; a pending invitation holds its seat', async () => {
      await subscribe(api.deps.knex, ws.id, { agents: 2 });
      const pending = email();
      expect((await invite(pending)).status).to.equal(201);
      expect((await invite(pending)).status).to.equal(201);
      expect((await invite(email())).status).to.equal(403);
    });

    it('reactivating a member takes a seat back: refused at the limit, accepted once another is deactivated', async () => {
      await subscribe(api.deps.knex, ws.id, { agents: 2 });
      const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      expect((await api.request('PUT', `/api/operator/${agent.id}`, { token: owner.token, body: { isActive: false } })).status).to.equal(200);
      const newcomer = await invite(email());
      expect(newcomer.status).to.equal(201);
      limitRefusal(await api.request('PUT', `/api/operator/${agent.id}`, { token: owner.token, body: { isActive: true } }), 403, agentLimitReached(2));
      expect((await api.request('PUT', `/api/operator/${newcomer.body.data.id}`, { token: owner.token, body: { isActive: false } })).status).to.equal(200);
      expect((await api.request('PUT', `/api/operator/${agent.id}`, { token: owner.token, body: { isActive: true } })).status).to.equal(200);
    });

    it('two invitations at once for the last seat: exactly one is accepted', async () => {
      await subscribe(api.deps.knex, ws.id, { agents: 2 });
      const results = await Promise.all([invite(email()), invite(email()), invite(email())]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 403, 403]);
      expect(await activeMembers()).to.equal(2);
    });

    it('a 6th agent on a 5-agent trial is refused; after the plan grows to 7 agents it is accepted', async () => {
      const subId = await subscribe(api.deps.knex, ws.id, { license: 'trial', agents: 5 });
      for (let i = 0; i < 4; i++) expect((await invite(email())).status).to.equal(201);
      limitRefusal(await invite(email()), 403, agentLimitReached(5));
      await api.deps.knex('subscriptions').where({ id: subId }).update({ license: 'business', agents: 7 });
      expect((await invite(email())).status).to.equal(201);
    });
  });

  describe('WhatsApp lines', () => {
    const cloudLine = () => ({ name: unique('Linha').slice(0, 40), phone: '+55 (11) 98765-4321', provider: 'cloud', phoneNumberId: String(Date.now()), businessAccountId: '987654321', accessToken: 'EAAG-test', appSecret: 'app-secret' });
    const addLine = () => api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: cloudLine() });

    it('a line beyond the plan’s lines is refused naming the limit; one line fewer or a bigger plan makes room', async () => {
      const subId = await subscribe(api.deps.knex, ws.id, { numbers: 1 });
      const first = await addLine();
      expect(first.status).to.equal(201);
      limitRefusal(await addLine(), 403, 'Seu plano permite 1 linha de WhatsApp e o limite foi atingido. Exclua uma linha ou contrate linhas adicionais em Assinatura.');
      expect((await loadUsage(api.deps.knex, ws.id)).whatsapp).to.equal(1);
      // A line that goes away (the settings have no delete for lines yet) gives its unit back.
      await api.deps.knex('channels').where({ id: first.body.data.id }).delete();
      expect((await addLine()).status).to.equal(201);
      await api.deps.knex('subscriptions').where({ id: subId }).update({ numbers: 3 });
      expect((await addLine()).status).to.equal(201);
      expect((await addLine()).status).to.equal(201);
      limitRefusal(await addLine(), 403, whatsappLimitReached(3));
    });
  });

  describe('parallel campaigns', () => {
    async function campaignBody() {
      const line = await makeQrLineRow(api.deps.knex, ws.id);
      const file = await storeUpload(api.deps.knex, api.config, ws.id, 'lista.csv', Buffer.from('5511912345678\n'));
      return { name: 'Promoção', workspacePlatformId: line, message: [{ insert: 'Olá!\n' }], file, executionDate: null };
    }

    it('a campaign beyond the running units is a 409 naming the limit with the link; a plan without campaigns a 403', async () => {
      const subId = await subscribe(api.deps.knex, ws.id, { license: 'business', campaignUnits: 0, numbers: 5 });
      const body = await campaignBody();
      limitRefusal(await api.request('POST', '/api/campaign', { token: owner.token, body }), 403, NO_CAMPAIGNS_IN_PLAN);
      await api.deps.knex('subscriptions').where({ id: subId }).update({ license: 'enterprise', campaignUnits: 1, agents: 10 });
      expect((await api.request('POST', '/api/campaign', { token: owner.token, body })).status).to.equal(201);
      limitRefusal(await api.request('POST', '/api/campaign', { token: owner.token, body }), 409, campaignLimitReached(1));
      expect(campaignLimitReached(1)).to.equal('Seu plano permite 1 campanha em execução ao mesmo tempo. Aguarde uma terminar, pause uma delas ou contrate campanhas adicionais em Assinatura.');
    });

    it('an expired plan with campaigns is refused as expired with 402 and the link', async () => {
      await subscribe(api.deps.knex, ws.id, { license: 'enterprise', campaignUnits: 1, numbers: 5, expiresAt: new Date(Date.now() - DAY) });
      const res = await api.request('POST', '/api/campaign', { token: owner.token, body: await campaignBody() });
      expect(res.status, JSON.stringify(res.body)).to.equal(402);
      expect(res.body.errors[0]).to.deep.include({ type: 'PaymentRequiredError', title: 'Plano expirado', descriptions: [PLAN_EXPIRED], link: PLAN_LINK });
    });
  });

  describe('which subscription limits a workspace', () => {
    it('the newest in force; a canceled one until its paid period ends; else the newest, expired (its units still count)', async () => {
      const knex = api.deps.knex;
      expect(await currentSubscription(knex, ws.id)).to.equal(undefined);
      const old = await subscribe(knex, ws.id, { license: 'trial', expiresAt: new Date(Date.now() - 10 * DAY) });
      expect(await currentSubscription(knex, ws.id)).to.deep.include({ id: old, inForce: false });
      const canceled = await subscribe(knex, ws.id, { license: 'enterprise', status: 'canceled', campaignUnits: 2 });
      expect(await currentSubscription(knex, ws.id)).to.deep.include({ id: canceled, inForce: true, campaignUnits: 2 });
      expect(await campaignPlan(knex, ws.id)).to.deep.equal({ campaignUnits: 2, running: 0, refusal: null });
      // A newer row that is not in force does not hide the one that is.
      await subscribe(knex, ws.id, { license: 'basic', status: 'expired' });
      expect((await currentSubscription(knex, ws.id))?.id).to.equal(canceled);
      const later = new Date(Date.now() + 30 * DAY);
      expect(await currentSubscription(knex, ws.id, later)).to.deep.include({ license: 'basic', inForce: false });
    });

    it('a workspace with no subscription row (made outside the product) is not limited in agents or lines and has no campaigns', async () => {
      for (let i = 0; i < 6; i++) expect((await invite(email())).status).to.equal(201);
      expect(await campaignPlan(api.deps.knex, ws.id)).to.deep.equal({ campaignUnits: 0, running: 0, refusal: NO_CAMPAIGNS_IN_PLAN });
    });

    it('usage counts active members with pending invitations, WhatsApp lines, Instagram channels and running campaigns', async () => {
      const knex = api.deps.knex;
      await subscribe(knex, ws.id, { agents: 10 });
      await makeOperator(knex, api.config.jwtSecret, ws, 3, { isActive: false });
      expect((await invite(email())).status).to.equal(201);
      await makeQrLineRow(knex, ws.id);
      await knex('channels').insert({ workspaceId: ws.id, type: 'instagram', platformId: 7, identifier: unique('ig'), name: 'IG', status: 'connected' });
      const line = await makeQrLineRow(knex, ws.id);
      await knex('campaigns').insert([
        { workspaceId: ws.id, channelId: line, name: 'a', status: 'executing' },
        { workspaceId: ws.id, channelId: line, name: 'b', status: 'paused' },
        { workspaceId: ws.id, channelId: line, name: 'c', status: 'waiting_processing' },
      ]);
      expect(await loadUsage(knex, ws.id)).to.deep.equal({ agents: 2, whatsapp: 2, instagram: 1, campaign: 2 });
    });
  });
});
