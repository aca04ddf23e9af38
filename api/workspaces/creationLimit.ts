import type { Knex } from 'knex';
import { errors } from '../http/errors';
import { AccessLevel } from '../policy/levels';

/**
 * How many workspaces one account may open in any 24 hours (docs/security.md, issue 25 item 8): each
 * one starts a subscription, so an unbounded loop of "Novo workspace" must not be possible. The
 * workspace opened at signup counts too. Counted in PostgreSQL, so every api node sees the same count.
 */
export const WORKSPACE_CREATION_LIMIT = { limit: 10, windowHours: 24 } as const;

export function workspaceLimitText(retryAfterSeconds: number): string {
  const hours = Math.max(1, Math.ceil(retryAfterSeconds / 3600));
  const when = hours === 1 ? '1 hora' : `${hours} horas`;
  return `Você já criou ${WORKSPACE_CREATION_LIMIT.limit} workspaces nas últimas 24 horas. Tente novamente em ${when}.`;
}

/**
 * Throws 429 RateLimitError with Retry-After when this account already opened the limit's number of
 * workspaces in the last 24 hours (workspaces it owns that were created in that window). Call inside the
 * creating transaction: the operator's row is locked first, so two parallel requests are counted one
 * after the other and cannot both take the last place.
 */
export async function assertWorkspaceCreationAllowed(trx: Knex.Transaction, operatorId: number): Promise<void> {
  await trx('operators').where({ id: operatorId }).forUpdate().first('id');
  const { limit, windowHours } = WORKSPACE_CREATION_LIMIT;
  const window = `${windowHours} hours`;
  // The newest `limit` workspaces of the window; the oldest of them is the one whose leaving makes room.
  const recent = (await trx('workspaceMembers as m')
    .join('workspaces as w', 'w.id', 'm.workspaceId')
    .where('m.operatorId', operatorId)
    .where('m.accessLevel', AccessLevel.OWNER)
    .whereRaw('w.created_at > now() - ?::interval', [window])
    .orderBy('w.createdAt', 'desc')
    .limit(limit)
    .select(trx.raw('extract(epoch from (w.created_at + ?::interval - now())) as "freeIn"', [window]))) as { freeIn: string | number }[];
  if (recent.length < limit) return;
  const retryAfter = Math.max(1, Math.ceil(Number(recent[recent.length - 1]!.freeIn)));
  throw errors.rateLimit(retryAfter, { description: workspaceLimitText(retryAfter) });
}
