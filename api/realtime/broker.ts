import type { Server } from 'node:http';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Publisher } from './publisher';

export interface EmbeddedBroker {
  publisher: Publisher;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** Embedded aedes broker on the api's HTTP server at /mqtt (WebSocket). Implemented in the realtime work. */
export function attachBroker(_server: Server, _deps: { config: Config; knex: Knex; logger: Logger }): EmbeddedBroker {
  const publisher: Publisher = { async publish() {}, async close() {} };
  return { publisher, healthy: async () => true, close: async () => {} };
}
