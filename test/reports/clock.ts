import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';

/**
 * A call driven with a controlled clock: the same writes the conversation pipeline makes on `calls` and
 * `bot_sessions` (receiveInbound's waiting clock, sendMessage's COMMON-reply update, finishOpenCall, a bot
 * session's start and end), each at a chosen instant, so the report triggers see exactly those instants.
 */
export class ClockedCall {
  private constructor(
    private readonly knex: Knex,
    readonly workspaceId: number,
    readonly conversationId: number,
    readonly id: number,
  ) {}

  /** A new conversation in `channelId` with its first call opened at `at`. */
  static async open(knex: Knex, workspaceId: number, channelId: number, at: Date, who: { operatorId?: number | null; groupId?: number | null } = {}): Promise<ClockedCall> {
    const [customer] = await knex('customers').insert({ workspaceId, name: 'Cliente relatório', origin: 'visitor' }).returning('id');
    const [cp] = await knex('customer_platforms')
      .insert({ workspaceId, channelId, customerId: customer.id, externalId: `rep-${randomBytes(6).toString('hex')}`, operatorId: who.operatorId ?? null, groupId: who.groupId ?? null })
      .returning('id');
    return ClockedCall.openOn(knex, workspaceId, Number(cp.id), at, who);
  }

  /** A new call on an existing conversation (reopen, or a message after resolve). */
  static async openOn(knex: Knex, workspaceId: number, conversationId: number, at: Date, who: { operatorId?: number | null; groupId?: number | null } = {}): Promise<ClockedCall> {
    const [call] = await knex('calls')
      .insert({ workspaceId, customerPlatformId: conversationId, createdAt: at, operatorId: who.operatorId ?? null, groupId: who.groupId ?? null })
      .returning('id');
    return new ClockedCall(knex, workspaceId, conversationId, Number(call.id));
  }

  /** A customer message (receiveInbound: the waiting clock starts at the first unanswered one). */
  async customerWrites(at: Date): Promise<void> {
    await this.knex('calls').where({ id: this.id }).update({ waitingSince: this.knex.raw('coalesce(waiting_since, ?::timestamptz)', [at]) });
  }

  /** An agent COMMON message (sendMessage's update of the call, verbatim). */
  async agentReplies(at: Date): Promise<void> {
    const trx = this.knex;
    await trx('calls')
      .where({ id: this.id })
      .update({
        firstResponseAt: trx.raw('coalesce(first_response_at, ?)', [at]),
        responseCount: trx.raw('response_count + (CASE WHEN waiting_since IS NULL THEN 0 ELSE 1 END)'),
        responseTimeSumMs: trx.raw('response_time_sum_ms + coalesce(greatest(0, (extract(epoch FROM ?::timestamptz - waiting_since) * 1000))::bigint, 0)', [at]),
        waitingSince: null,
      });
  }

  async assign(operatorId: number | null, groupId: number | null = null): Promise<void> {
    await this.knex('calls').where({ id: this.id }).update({ operatorId, groupId });
  }

  /** finishOpenCall at `at`. */
  async finish(at: Date): Promise<void> {
    await this.knex('calls').where({ id: this.id, isFinished: false }).update({ isFinished: true, finishedAt: at });
  }

  /** A bot session starts on the call (openSession); returns its id. */
  async botStarts(botId: number): Promise<number> {
    const [row] = await this.knex('bot_sessions')
      .insert({ workspaceId: this.workspaceId, customerPlatformId: this.conversationId, botId, callId: this.id, workflowId: `bot-session:${this.conversationId}`, status: 'active' })
      .returning('id');
    return Number(row.id);
  }

  /** The bot session ends at `at` (hand-off 'transferred', or finished, failed, canceled). */
  async botEnds(sessionId: number, at: Date, status = 'transferred'): Promise<void> {
    await this.knex('bot_sessions').where({ id: sessionId, status: 'active' }).update({ status, finishedAt: at });
  }
}

/** A bot row for sessions to point at. */
export async function makeBot(knex: Knex, workspaceId: number): Promise<number> {
  const [row] = await knex('bots').insert({ workspaceId, name: 'Bot relatório' }).returning('id');
  return Number(row.id);
}

/** A UTC instant from São Paulo wall-clock time (UTC−3, no daylight saving since 2019). */
export function sp(local: string): Date {
  return new Date(`${local}-03:00`);
}
