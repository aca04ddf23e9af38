import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { topics } from '../../api/realtime/publisher';
import { createMqttPublisher, defaultMqttUrl } from '../../api/realtime/mqttPublisher';

/** The republish sweep marks an event sent only when the broker took it (issue 10 item 5). */
describe('realtime publishers say whether the broker took an event', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api?.close());

  it('the worker-side publisher answers true when the broker confirms and false when it is gone', async () => {
    // The product's default ack wait (5 s), not 1.5 s: a busy machine must not turn a late PUBACK into false.
    const publisher = createMqttPublisher(defaultMqttUrl(api.config), api.config.mqttInternalPassword, { ackTimeoutMs: 5000 });
    try {
      const until = Date.now() + 15_000;
      while (!publisher.connected() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(await publisher.publish(topics.workspace(1), 'channel.status', { ok: true })).to.equal(true);
      await api.broker.close();
      expect(await publisher.publish(topics.workspace(1), 'channel.status', { ok: false })).to.equal(false);
    } finally {
      await publisher.close();
    }
  });

  it('the in-process publisher answers false once the embedded broker is down', async () => {
    expect(await api.broker.publisher.publish(topics.workspace(1), 'channel.status', {})).to.equal(false);
  });
});
