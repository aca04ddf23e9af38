import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { Clients } from '../realtime/mqttClients';

describe('member changes end live realtime sessions', () => {
  let api: TestApi;
  let clients: Clients;
  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  const closed = (client: { once(e: 'close', f: () => void): unknown }) => new Promise<void>((resolve) => client.once('close', resolve));

  for (const [what, body] of [
    ['deactivating', { isActive: false }],
    ['changing the level of', { accessLevel: 2 }],
  ] as const) {
    it(`${what} a member closes their open MQTT session at once`, async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const client = await clients.connect(String(agent.id), agent.token);
      const wasClosed = closed(client);
      const res = await api.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body });
      expect(res.status).to.equal(200);
      await wasClosed;
      expect(await clients.refusal(String(agent.id), agent.token)).to.equal(4);
    });
  }

  it('leaves the session open when the update changes nothing', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const client = await clients.connect(String(agent.id), agent.token);
    const res = await api.request('PUT', `/api/operator/${agent.id}`, { token: admin.token, body: { accessLevel: 3 } });
    expect(res.status).to.equal(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(client.connected).to.equal(true);
  });
});
