import { fileURLToPath } from 'node:url';
import { Runtime, Worker } from '@temporalio/worker';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { createKnex, bindModels } from './db/knex';
import { createMqttPublisher, defaultMqttUrl } from './realtime/mqttPublisher';
import { createTemporalGateway } from './temporal/client';
import { connectWithRetry } from './temporal/connectWithRetry';
import { reconcileSubscriptions } from './temporal/reconcileSubscriptions';
import { temporalLogger } from './temporal/runtimeLogger';
import { createActivities } from '../activities';

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** The worker process: the workflows of `workflows/` and the activities of `activities/` on one task queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  // This process owns its signals: the first one drains the worker, a second one exits at once.
  Runtime.install({
    logger: temporalLogger(logger),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
    shutdownSignals: [],
  });

  let stopping = false;
  let worker: Worker | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    if (worker?.getState() === 'RUNNING') worker.shutdown();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const knex = createKnex(config.databaseUrl);
  bindModels(knex);
  const publisher = createMqttPublisher(defaultMqttUrl(config), config.mqttInternalPassword, { logger });
  const temporal = createTemporalGateway(config);
  const cleanup = async () => {
    await temporal.close();
    await publisher.close();
    await knex.destroy();
  };

  const connection = await connectWithRetry(config.temporalAddress, logger, { shouldStop: () => stopping });
  if (!connection) return cleanup();
  try {
    worker = await Worker.create({
      connection,
      namespace: config.temporalNamespace,
      taskQueue: config.temporalTaskQueue,
      workflowsPath,
      activities: createActivities({ knex, publisher, logger }),
    });
    if (stopping) return;
    logger.info({ address: config.temporalAddress, taskQueue: config.temporalTaskQueue }, 'worker started');
    const reconciled = reconcileSubscriptions({ knex, temporal, logger }).then(
      (n) => logger.info({ subscriptions: n }, 'subscription lifecycles reconciled'),
      (err: unknown) => logger.error({ err }, 'subscription reconcile failed'),
    );
    await worker.run();
    await reconciled;
  } finally {
    await connection.close();
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
