import { randomBytes } from 'node:crypto';
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import type { Logger } from '../logger';
import type { Publisher } from './publisher';
import { assertPublishableTopic, makeEnvelope } from './envelope';
import { INTERNAL_USERNAME } from './access';
import { webSocketStreamBuilder } from './wsFrames';

export interface MqttPublisher extends Publisher {
  connected(): boolean;
}

export interface MqttPublisherOptions {
  logger?: Logger;
  /** How long publish waits for the broker's PUBACK before giving up on that event. */
  ackTimeoutMs?: number;
}

/** Default broker address for server processes when MQTT_URL is unset: the api's embedded broker. */
export function defaultMqttUrl(config: { mqttUrl: string | undefined; port: number }): string {
  return config.mqttUrl ?? `ws://127.0.0.1:${config.port}/mqtt`;
}

/**
 * A publisher for processes other than the api (the Temporal worker), or for the api itself when the
 * broker is external. It connects with the internal credential and reconnects on its own.
 *
 * Like the in-process publisher, publish never rejects for a delivery problem (it resolves to false): events are published
 * after commit and clients refetch on reconnect, so a broker outage must not fail the work that caused
 * the event. Problems are logged.
 */
export function createMqttPublisher(url: string, internalPassword: string, options: MqttPublisherOptions = {}): MqttPublisher {
  const log = options.logger?.child({ component: 'mqtt-publisher' });
  const ackTimeoutMs = options.ackTimeoutMs ?? 5000;
  const connectOptions: IClientOptions = {
    username: INTERNAL_USERNAME,
    password: internalPassword,
    clientId: `balcao-internal-${randomBytes(6).toString('hex')}`,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // A refused CONNACK (an external broker still starting, its auth hook not reachable yet) must not end the
    // retries: mqtt.js would otherwise stay disconnected for the life of the process.
    reconnectOnConnackError: true,
  };
  // Over WebSocket (the embedded broker, RabbitMQ's Web MQTT), a packet goes as one frame (wsFrames.ts).
  const client = /^wss?:/i.test(url) ? new MqttClient(webSocketStreamBuilder(url), connectOptions) : mqtt.connect(url, connectOptions);
  // mqtt.js emits 'error' for refused CONNACKs and socket failures; unhandled it would crash the process.
  client.on('error', (err) => log?.warn({ err: err.message }, 'mqtt publisher error'));
  client.on('offline', () => log?.warn({ url }, 'mqtt publisher offline'));

  return {
    connected: () => client.connected,
    async publish(topic, event, data) {
      assertPublishableTopic(topic);
      const payload = JSON.stringify(makeEnvelope(event, data));
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.publishAsync(topic, payload, { qos: 1 }),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('sem confirmação do broker')), ackTimeoutMs);
          }),
        ]);
        return true;
      } catch (err) {
        log?.warn({ err: (err as Error).message, topic, event }, 'mqtt publish not confirmed');
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      // A graceful end waits for in-flight PUBACKs; a dead broker would make it wait forever.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        client.endAsync(false),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ackTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (!client.disconnected) await client.endAsync(true);
    },
  };
}
