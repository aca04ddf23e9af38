import type { Knex } from 'knex';
import type { PlatformRow } from './queries';

export interface OpenCall {
  callId: number;
  /** True when this transaction opened it (publish chat.newCall after commit). */
  opened: boolean;
}

/**
 * The conversation's open call, opening one when there is none (new conversation, or resolved: a new
 * call gets a new protocol when this transaction commits: calls_protocol_at_commit). Callers hold the
 * conversation row lock, so commands never race each other here; calls_open_unique still guards writers
 * that do not, and ON CONFLICT lets this transaction read the winner's call instead of failing.
 */
export async function ensureOpenCall(trx: Knex.Transaction, cp: PlatformRow): Promise<OpenCall> {
  const existing = await trx('calls').where({ customerPlatformId: cp.id, isFinished: false }).first('id');
  if (existing) return { callId: existing.id, opened: false };
  return openCall(trx, cp);
}

/**
 * Opens the conversation's call when the caller found none open under the conversation row lock (what
 * ensureOpenCall does after its lookup; receiveInbound looks up the open call inside its message insert).
 */
export async function openCall(trx: Knex.Transaction, cp: PlatformRow): Promise<OpenCall> {
  // ON CONFLICT rather than a savepoint: a concurrent open of the same conversation's call (the one-open-call
  // unique index) leaves ours out, and the winner's call is the open one.
  const [row]: { id: number }[] = await trx('calls')
    .insert({ workspaceId: cp.workspaceId, customerPlatformId: cp.id, operatorId: cp.operatorId, groupId: cp.groupId })
    .onConflict()
    .ignore()
    .returning('id');
  if (row) return { callId: row.id, opened: true };
  const winner = await trx('calls').where({ customerPlatformId: cp.id, isFinished: false }).first('id');
  if (!winner) throw new Error(`call of conversation ${cp.id} conflicts with a row that is not its open call`);
  return { callId: winner.id, opened: false };
}

/** Finishes the open call, if any (is_finished and finished_at together: calls_finished_check); answers its id. */
export async function finishOpenCall(trx: Knex.Transaction, conversationId: number): Promise<number | undefined> {
  const [row]: { id: number }[] = await trx('calls').where({ customerPlatformId: conversationId, isFinished: false }).update({ isFinished: true, finishedAt: trx.fn.now() }).returning('id');
  return row?.id;
}
