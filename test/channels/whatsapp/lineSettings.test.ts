import { expect } from 'chai';
import { startTestApi, type TestApi } from '../../helpers/api';
import { makeOperator, unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { makeOwner } from '../helpers';
import { cloudLineOf } from '../../../api/channels/whatsapp/cloudLine';

describe('WhatsApp line settings (GET/PUT /integrations/whatsapp/:id): name and groups editable, phone not', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: { id: number };

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('wa-line') });
  });
  after(() => api?.close());
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    const res = await api.request('POST', '/api/integrations/whatsapp', {
      token: owner.token,
      body: { name: 'Vendas', phone: '+55 (11) 91234-5678', provider: 'cloud', phoneNumberId: '106540352242922', businessAccountId: '102290129340398', accessToken: 'EAAG-secreto', appSecret: 'segredo' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    line = res.body.data;
  });

  it('shows the line with its status and webhook, never its secrets', async () => {
    const res = await api.request('GET', `/api/integrations/whatsapp/${line.id}`, { token: owner.token });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ id: line.id, name: 'Vendas', phone: '5511912345678', provider: 'cloud', status: 'connected', allowGroups: false });
    expect(JSON.stringify(res.body)).to.not.include('EAAG-secreto').and.not.include('"segredo"');
  });

  it('renames the line and switches allowGroups; the same phone is accepted, another refused with the field error', async () => {
    let res = await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: owner.token, body: { name: 'Suporte', allowGroups: true, phone: '+55 (11) 91234-5678' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ name: 'Suporte', description: 'Suporte', allowGroups: true, phone: '5511912345678' });
    res = await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: owner.token, body: { name: 'Outro', phone: '+55 (21) 99999-0000' } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'phone', descriptions: ['O número não pode ser alterado depois de criado.'] });
    const row = await api.deps.knex('channels').where({ id: line.id }).first();
    expect(row).to.include({ name: 'Suporte', phone: '5511912345678', allowGroups: true });
  });

  it('a new access token is sealed (never answered) and puts a disconnected Cloud line back to connected', async () => {
    await api.deps.knex('channels').where({ id: line.id }).update({ status: 'disconnected' });
    const before = (await api.deps.knex('channels').where({ id: line.id }).first()).config;
    const res = await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: owner.token, body: { name: 'Vendas', accessToken: 'EAAG-novo-token' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.status).to.equal('connected');
    expect(JSON.stringify(res.body)).to.not.include('EAAG-novo-token');
    const row = await api.deps.knex('channels').where({ id: line.id }).first();
    expect(row.status).to.equal('connected');
    expect(JSON.stringify(row.config)).to.not.include('EAAG-novo-token');
    expect(row.config.accessTokenSealed).to.not.equal(before.accessTokenSealed);
    expect(row.config.appSecretSealed).to.equal(before.appSecretSealed);
    expect(cloudLineOf(api.config, row)?.accessToken).to.equal('EAAG-novo-token');
  });

  it('requires the name', async () => {
    const res = await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: owner.token, body: { name: '  ' } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'name' });
  });

  it("another workspace's line is a 404 and an agent below level 6 is refused", async () => {
    const other = await makeOwner(api);
    expect((await api.request('GET', `/api/integrations/whatsapp/${line.id}`, { token: other.owner.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: other.owner.token, body: { name: 'X' } })).status).to.equal(404);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await api.request('PUT', `/api/integrations/whatsapp/${line.id}`, { token: agent.token, body: { name: 'X' } })).status).to.equal(403);
    expect((await api.deps.knex('channels').where({ id: line.id }).first()).name).to.equal('Vendas');
  });
});
