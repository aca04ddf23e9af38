import { Client, Connection, WorkflowIdConflictPolicy } from '@temporalio/client';
import type { Config } from '../config';
import { workflowIds } from '../../workflows/ids';
import {
  subscriptionChangedSignal,
  subscriptionPaidSignal,
  subscriptionRenewedSignal,
  type subscriptionLifecycle,
  type SubscriptionLifecycleInput,
  type SubscriptionPayment,
  type SubscriptionRenewal,
} from '../../workflows/subscription/subscriptionLifecycle';

import {
  botMessageSignal,
  botSessionMemo,
  botStartSignal,
  botStopSignal,
  type botSession,
  type BotInbound,
  type BotSessionInput,
} from '../../workflows/bots/botSession';

export type { SubscriptionLifecycleInput };

/** Lazily connected Temporal client shared by the api process. */
export interface TemporalGateway {
  client(): Promise<Client>;
  taskQueue: string;
  healthy(): Promise<boolean>;
  /** Starts `subscription:{id}`; a second start of a running lifecycle is a no-op. */
  startSubscriptionLifecycle(input: SubscriptionLifecycleInput): Promise<void>;
  /**
   * Tells `subscription:{id}` about a new expiry after the row was renewed (after commit), starting the
   * lifecycle again if the old one had already finished.
   */
  renewSubscriptionLifecycle(input: SubscriptionLifecycleInput): Promise<void>;
  /**
   * Wakes `subscription:{id}` after commit (docs/billing.md "Subscription lifecycle"): an invoice was paid
   * (`paid`: the lifecycle applies it) or the row changed (`changed`: canceled, a downgrade scheduled). Starts
   * the lifecycle when none runs (a plan that expired and is paid again).
   */
  signalSubscriptionLifecycle(input: SubscriptionLifecycleInput, news: { paid: SubscriptionPayment } | 'changed'): Promise<void>;
  /**
   * Starts `bot-session:{conversationId}` with signal-with-start: a running session of the conversation
   * gets botStartSignal and gives way to this one (continueAsNew); none running, this one starts.
   */
  startBotSession(input: BotSessionInput): Promise<void>;
  /** An inbound customer message for the conversation's running session; false when none runs. */
  signalBotMessage(conversationId: number, message: BotInbound): Promise<boolean>;
  /** 'Atendimento manual': the running session stops; false when none runs. */
  stopBotSession(conversationId: number): Promise<boolean>;
  close(): Promise<void>;
}

function isNotFound(err: unknown): boolean {
  return (err as { name?: string })?.name === 'WorkflowNotFoundError';
}

export function createTemporalGateway(config: Pick<Config, 'temporalAddress' | 'temporalNamespace' | 'temporalTaskQueue'>): TemporalGateway {
  let connection: Promise<Connection> | undefined;
  const connect = () => {
    connection ??= Connection.connect({ address: config.temporalAddress, connectTimeout: '5s' }).catch((err: unknown) => {
      connection = undefined;
      throw err;
    });
    return connection;
  };
  return {
    taskQueue: config.temporalTaskQueue,
    async client() {
      return new Client({ connection: await connect(), namespace: config.temporalNamespace });
    },
    async healthy() {
      try {
        const conn = await connect();
        await conn.withDeadline(Date.now() + 2000, () => conn.healthService.check({}));
        return true;
      } catch {
        return false;
      }
    },
    async startSubscriptionLifecycle(input) {
      const client = await this.client();
      await client.workflow.start<typeof subscriptionLifecycle>('subscriptionLifecycle', {
        taskQueue: config.temporalTaskQueue,
        workflowId: workflowIds.subscription(input.subscriptionId),
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        args: [input],
      });
    },
    async renewSubscriptionLifecycle(input) {
      const client = await this.client();
      await client.workflow.signalWithStart<typeof subscriptionLifecycle, [SubscriptionRenewal]>('subscriptionLifecycle', {
        taskQueue: config.temporalTaskQueue,
        workflowId: workflowIds.subscription(input.subscriptionId),
        args: [input],
        signal: subscriptionRenewedSignal,
        signalArgs: [{ expiresAt: input.expiresAt }],
      });
    },
    async signalSubscriptionLifecycle(input, news) {
      const client = await this.client();
      const common = { taskQueue: config.temporalTaskQueue, workflowId: workflowIds.subscription(input.subscriptionId), args: [input] as [SubscriptionLifecycleInput] };
      if (news === 'changed') {
        await client.workflow.signalWithStart<typeof subscriptionLifecycle, []>('subscriptionLifecycle', { ...common, signal: subscriptionChangedSignal, signalArgs: [] });
      } else {
        await client.workflow.signalWithStart<typeof subscriptionLifecycle, [SubscriptionPayment]>('subscriptionLifecycle', { ...common, signal: subscriptionPaidSignal, signalArgs: [news.paid] });
      }
    },
    async startBotSession(input) {
      const client = await this.client();
      await client.workflow.signalWithStart<typeof botSession, [BotSessionInput]>('botSession', {
        taskQueue: config.temporalTaskQueue,
        workflowId: workflowIds.botSession(input.conversationId),
        args: [input],
        memo: botSessionMemo(input),
        signal: botStartSignal,
        signalArgs: [input],
      });
    },
    async signalBotMessage(conversationId, message) {
      const client = await this.client();
      try {
        await client.workflow.getHandle(workflowIds.botSession(conversationId)).signal(botMessageSignal, message);
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async stopBotSession(conversationId) {
      const client = await this.client();
      try {
        await client.workflow.getHandle(workflowIds.botSession(conversationId)).signal(botStopSignal);
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async close() {
      if (connection) await (await connection.catch(() => undefined))?.close();
      connection = undefined;
    },
  };
}
