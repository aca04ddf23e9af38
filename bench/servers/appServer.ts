/** The real api (createApp with every middleware) on a loopback port, over DATABASE_URL. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { createKnex, bindModels } from '../../api/db/knex';
import { createMailer } from '../../api/mail/mailer';
import { createTemporalGateway } from '../../api/temporal/client';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';
import { createApp } from '../../api/app';
import { attachBroker } from '../../api/realtime/broker';

const config = loadConfig();
const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent');
const knex = createKnex(config.databaseUrl, { pool: { max: 20 } });
bindModels(knex);
const server = http.createServer();
server.keepAliveTimeout = 65_000;
const broker = attachBroker(server, { config, knex, logger });
const app = createApp({
  config,
  knex,
  logger,
  mailer: createMailer(config, logger),
  publisher: broker.publisher,
  temporal: createTemporalGateway(config),
  rateLimiter: createMemoryRateLimiter(),
});
const handle = app.callback();
server.on('request', (req, res) => void handle(req, res));
server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  void broker.close().then(() => knex.destroy()).then(() => process.exit(0));
});
