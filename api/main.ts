import http from 'node:http';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { createKnex, bindModels } from './db/knex';
import { migrateLatest } from './db/migrate';
import { createMailer } from './mail/mailer';
import { createTemporalGateway } from './temporal/client';
import { createMemoryRateLimiter } from './http/rateLimit';
import { createRedisRateLimiter } from './http/redisRateLimit';
import { createRedis } from './db/redis';
import { useJobGate } from './jobs/runPeriodically';
import { pgJobLeases } from './jobs/leases';
import { createApp } from './app';
import { attachBroker } from './realtime/broker';
import { setOperatorOnline } from './assignment/setOperatorOnline';
import type { AppDeps } from './deps';
import type { Publisher } from './realtime/publisher';
import { startInboundRepublisher } from './conversations/republishInbound';
import { exitWithParent } from './exitWithParent';
import { startInboundSmtp } from './channels/email/smtpServer';
import { startStoredHookSweep } from './channels/hooks/store';
import { startInboxCountCompactor } from './inbox/compactInboxCounts';
import { unsetOperatorVariables } from './http/operatorIdentity';
import { pushesSettled } from './push/send';

/** The api process: HTTP API, built UI and the embedded MQTT broker on one port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'api');
  const knex = createKnex(config.databaseUrl);
  bindModels(knex);
  if (process.env.MIGRATE_ON_START !== '0') await migrateLatest(knex);

  // A node of a cluster (docs/scaling.md): limits counted in Redis, each sweep once per interval cluster-wide.
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  if (config.clusterJobs) useJobGate(pgJobLeases(knex));

  const server = http.createServer();
  let publisher: Publisher = { publish: async () => false, async close() {} };
  const deps: AppDeps = {
    config,
    knex,
    logger,
    mailer: createMailer(config, logger),
    get publisher() {
      return publisher;
    },
    temporal: createTemporalGateway(config),
    rateLimiter: redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter(),
  };
  const broker = attachBroker(server, { config, knex, logger, onPresence: setOperatorOnline });
  publisher = broker.publisher;
  deps.health = { mqtt: () => broker.healthy() };
  deps.realtimeSessions = broker;

  const app = createApp(deps);
  const handle = app.callback();
  server.on('request', (req, res) => void handle(req, res));
  // HOST defaults to loopback, like the embedded services; a deployment opens it (docker-compose: 0.0.0.0).
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  logger.info({ url: config.publicUrl, host: config.host, port: config.port }, 'api listening');
  const unset = unsetOperatorVariables(config.operator);
  if (unset.length) logger.warn({ unset }, 'the legal pages (/terms, /privacy) show placeholders for the operator identity: set these variables before publishing');
  // Inbound messages committed by a process that died before publishing them (docs/reliability.md).
  const republisher = startInboundRepublisher(deps);
  // Stored webhooks (Meta's batches, WhatsApp Cloud bodies) whose processing died after the 200 (docs/channels/meta.md).
  const hookSweep = startStoredHookSweep(deps);
  // Folds the inbox count deltas the conversation trigger writes into their buckets (docs/performance.md).
  const countCompactor = startInboxCountCompactor(deps);
  // The e-mail channel's inbound SMTP server (docs/channels/email.md), on the same interface as the api. A
  // taken port (a second api on this machine) leaves e-mail inbound off, logged, rather than the whole api down.
  const smtp = await startInboundSmtp(deps, { port: config.smtpPort, host: config.host }).catch((err: unknown) => {
    logger.error({ err, port: config.smtpPort }, 'inbound smtp not started: e-mail channels receive nothing');
    return undefined;
  });
  if (smtp) logger.info({ host: config.host, port: smtp.port }, 'inbound smtp listening');

  const stop = async () => {
    logger.info('api stopping');
    await republisher.stop();
    await hookSweep.stop();
    await countCompactor.stop();
    await smtp?.close();
    server.close();
    await broker.close();
    await deps.temporal.close();
    await deps.rateLimiter.close?.();
    // Pushes already on their way (api/push/send.ts) finish before the pool goes (each has its own timeout).
    await pushesSettled();
    await knex.destroy();
    process.exit(0);
  };
  exitWithParent();
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
