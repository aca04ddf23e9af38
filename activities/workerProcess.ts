import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { Runtime, Worker } from '@temporalio/worker';
import { loadConfig, type Config } from '../api/config';
import { createLogger, type Logger } from '../api/logger';
import { createKnex, bindModels } from '../api/db/knex';
import { createMqttPublisher, defaultMqttUrl } from '../api/realtime/mqttPublisher';
import { createTemporalGateway } from '../api/temporal/client';
import { connectWithRetry } from './temporal/connectWithRetry';
import { reconcileSubscriptions } from './subscription/reconcileSubscriptions';
import { reconcileDeliveries, startDeliverySweeper } from '../api/webhooks/startDelivery';
import { startSendSweeper, startUnstartedSends } from '../api/channels/outbound/startChannelSend';
import { startHandBackSweeper } from '../api/assignment/handBackAbsent';
import { temporalLogger } from './temporal/runtimeLogger';
import { createActivities } from './index';
import type { MakeQrSocket } from './channels/whatsapp/qrSocket';
import { QrLiveSockets, sessionTaskQueue } from './channels/whatsapp/liveSockets';
import { reconcileQrConnections } from './channels/whatsapp/reconcileConnections';
import { reconcileBotSessions } from './bots/reconcileSessions';
import { reconcileCampaigns } from './campaigns/reconcileCampaigns';
import { reconcileContractImports } from './contracts/reconcileContractImports';
import { exitWithParent } from '../api/exitWithParent';
import { useJobGate } from '../api/jobs/runPeriodically';
import { pgJobLeases } from '../api/jobs/leases';
import { kickUntoldSchedules, startScheduleSweeper } from '../api/schedules/kick';

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Logs how many rows a start-up reconcile handled, or why it failed; never rejects. */
function logged(logger: Logger, message: string, field: string, run: Promise<number>): Promise<void> {
  return run.then(
    (n) => logger.info({ [field]: n }, message),
    (err: unknown) => logger.error({ err }, `${message}: failed`),
  );
}

export interface WorkerProcessOptions {
  /**
   * What opens a WhatsApp QR line's socket in this process: Baileys in `activities/worker.ts`; the cluster
   * tests' workers pass a loopback fake (test/cluster/support/qrWorker.ts), and nothing else differs.
   */
  qrSocketFactory(deps: { knex: Knex; config: Config }): MakeQrSocket;
}

async function main(options: WorkerProcessOptions): Promise<void> {
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
  let sessionWorker: Worker | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    if (sessionWorker?.getState() === 'RUNNING') sessionWorker.shutdown();
  };
  exitWithParent();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const knex = createKnex(config.databaseUrl);
  bindModels(knex);
  // One of several workers (docs/scaling.md): each sweep runs once per interval across all processes.
  if (config.clusterJobs) useJobGate(pgJobLeases(knex));
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
    // The only place QR lines get a real Baileys socket (docs/channels/whatsapp.md "Connection workflow");
    // sends and socket calls for the sockets this process holds arrive on a queue only it polls (docs/outbound.md).
    const qrSockets = new QrLiveSockets(sessionTaskQueue(config.temporalTaskQueue));
    const activities = createActivities({ knex, publisher, logger, config, temporal }, { whatsappQr: { makeSocket: options.qrSocketFactory({ knex, config }), sockets: qrSockets } });
    worker = await Worker.create({ connection, namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue, workflowsPath, activities });
    sessionWorker = await Worker.create({ connection, namespace: config.temporalNamespace, taskQueue: qrSockets.taskQueue!, activities });
    if (stopping) return;
    logger.info({ address: config.temporalAddress, taskQueue: config.temporalTaskQueue }, 'worker started');
    // Start-up reconciles run beside the worker, each logged: lifecycles of subscriptions, the webhook
    // outbox (every pending delivery gets its workflow), and bot sessions whose workflow never started.
    const deps = { knex, temporal, logger };
    const reconciles = [
      logged(logger, 'subscription lifecycles reconciled', 'subscriptions', reconcileSubscriptions(deps)),
      logged(logger, 'pending webhook deliveries reconciled', 'deliveries', reconcileDeliveries(deps)),
      logged(logger, 'pending channel sends reconciled', 'sends', startUnstartedSends(deps, { all: true })),
      logged(logger, 'orphaned bot sessions closed', 'botSessions', reconcileBotSessions(deps)),
      logged(logger, 'WhatsApp QR connections reconciled', 'qrConnections', reconcileQrConnections(deps)),
      logged(logger, 'campaigns without a running workflow started', 'campaigns', reconcileCampaigns(deps)),
      logged(logger, 'contract imports without a running workflow started', 'contractImports', reconcileContractImports(deps)),
      logged(logger, 'pending scheduled messages told to their workflows', 'scheduledMessages', kickUntoldSchedules(deps, { all: true })),
    ];
    const sweeper = startDeliverySweeper({ knex, temporal, logger });
    const sendSweeper = startSendSweeper({ knex, temporal, logger });
    // A scheduled message whose workflow missed its start or last change (docs/scheduled-messages.md).
    const scheduleSweeper = startScheduleSweeper({ knex, temporal, logger });
    // Agents away past PRESENCE_GRACE_MS hand back their unanswered round-robin calls (docs/assignment.md).
    const handBack = startHandBackSweeper({ knex, logger, publisher, config });
    try {
      // Either worker ending (a signal, a fatal error) ends the other.
      const [main, session] = [worker, sessionWorker];
      const stop = (w: Worker) => () => (w.getState() === 'RUNNING' ? w.shutdown() : undefined);
      await Promise.all([main.run().finally(stop(session)), session.run().finally(stop(main))]);
    } finally {
      await sweeper.stop();
      await sendSweeper.stop();
      await scheduleSweeper.stop();
      await handBack.stop();
    }
    await Promise.all(reconciles);
  } finally {
    await connection.close();
    await cleanup();
  }
}

/**
 * The worker process (`activities/worker.ts`): the workflows of `workflows/` and the activities of
 * `activities/` on the task queue, a second Temporal worker on the queue only this process polls (its QR
 * sockets), the start-up reconciles and the sweeps; exits when both workers have stopped.
 */
export function runWorkerProcess(options: WorkerProcessOptions): void {
  main(options).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
