import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { Clients, inbox, subscribeCodes, waitFor } from './mqttClients';

describe('realtime: an api configured with MQTT_URL publishes through that broker', () => {
  let brokerApi: TestApi;
  let nodeApi: TestApi;

  // The "external" broker is another api's embedded one: what matters is that the second api embeds
  // nothing and publishes over MQTT with the internal credential.
  before(async () => {
    brokerApi = await startTestApi();
    nodeApi = await startTestApi({ mqttUrl: `${brokerApi.url.replace(/^http/, 'ws')}/mqtt` });
  });
  after(async () => {
    await nodeApi.close();
    await brokerApi.close();
  });

  it("delivers the second api's events to an operator connected to the broker, and serves no /mqtt itself", async () => {
    const ws = await makeWorkspace(brokerApi.deps.knex);
    const op = await makeOperator(brokerApi.deps.knex, brokerApi.config.jwtSecret, ws, 10);
    const clients = new Clients(brokerApi.url);
    try {
      const client = await clients.connect(String(op.id), op.token);
      const received = inbox(client);
      await subscribeCodes(client, [topics.operator(ws.id, op.id)]);

      await nodeApi.broker.publisher.publish(topics.operator(ws.id, op.id), 'chat.newMessage', { via: 'external' });
      await waitFor(() => received.length === 1);
      expect(received[0].envelope).to.deep.include({ event: 'chat.newMessage', data: { via: 'external' } });
      expect(await nodeApi.broker.healthy()).to.equal(true);

      const refusal = await new Clients(nodeApi.url).refusal(String(op.id), op.token);
      expect(refusal, 'no broker is embedded in the second api').to.equal(-1);
    } finally {
      await clients.endAll();
    }
  });
});
