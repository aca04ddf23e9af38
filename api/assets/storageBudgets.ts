import type { Knex } from 'knex';
import { errors, type AppError } from '../http/errors';
import { lockWorkspaceStorage, secondsUntilWindowFits, storageUsage, type StorageUsage, type UploaderScope } from './queries';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * How much may be stored (docs/widget.md "Storage budgets"). Counted from stored_files, so every upload
 * counts from the moment it is stored, whether or not it ever reaches a message.
 */
export const STORAGE_BUDGETS = {
  /** What one widget visitor may upload in any 24 hours. */
  visitorPerDay: 50 * MiB,
  /** What all the visitors of one widget channel together may upload in any 24 hours. */
  channelPerDay: 1 * GiB,
  /** Everything a workspace keeps: agents' and visitors' uploads and avatars. */
  workspaceTotal: 10 * GiB,
  windowSeconds: DAY_SECONDS,
} as const;

const size = (bytes: number) => (bytes >= GiB ? `${bytes / GiB} GB` : `${bytes / MiB} MB`);

const TEXTS = {
  visitor: `Você atingiu o limite de ${size(STORAGE_BUDGETS.visitorPerDay)} em arquivos enviados nas últimas 24 horas. Tente novamente mais tarde.`,
  channel: `Este canal atingiu o limite de ${size(STORAGE_BUDGETS.channelPerDay)} em arquivos de visitantes nas últimas 24 horas. Tente novamente mais tarde.`,
  workspace: `O espaço para arquivos deste workspace (${size(STORAGE_BUDGETS.workspaceTotal)}) está cheio.`,
};

/** Bytes of uploads under way on this api node, by budget key, so parallel uploads cannot all fit in the same room. */
const inFlight = new Map<string, number>();

function budgetKeys(scope: UploaderScope): { workspace: string; channel?: string; visitor?: string } {
  const v = scope.visitor;
  return {
    workspace: `ws:${scope.workspaceId}`,
    ...(v ? { channel: `ch:${v.channelId}`, visitor: `v:${v.channelId}:${v.visitorId}` } : {}),
  };
}

function reserve(scope: UploaderScope, bytes: number): () => void {
  const keys = Object.values(budgetKeys(scope)).filter((k): k is string => Boolean(k));
  for (const k of keys) inFlight.set(k, (inFlight.get(k) ?? 0) + bytes);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const k of keys) {
      const left = (inFlight.get(k) ?? 0) - bytes;
      if (left > 0) inFlight.set(k, left);
      else inFlight.delete(k);
    }
  };
}

function reserved(scope: UploaderScope): StorageUsage {
  const keys = budgetKeys(scope);
  const of = (k?: string) => (k ? (inFlight.get(k) ?? 0) : 0);
  return { workspace: of(keys.workspace), channel: of(keys.channel), visitor: of(keys.visitor) };
}

/** 429 for a budget of a window: Retry-After says when enough of the window's uploads have left it. */
async function windowFull(db: Knex | Knex.Transaction, scope: UploaderScope, which: 'visitor' | 'channel', budget: number, incoming: number): Promise<AppError> {
  const v = scope.visitor!;
  const wait =
    (await secondsUntilWindowFits(
      db,
      { workspaceId: scope.workspaceId, channelId: v.channelId, ...(which === 'visitor' ? { visitorId: v.visitorId } : {}) },
      STORAGE_BUDGETS.windowSeconds,
      budget,
      incoming,
    )) ?? 60; // it fits once other uploads under way have ended: soon
  return errors.rateLimit(wait, { title: 'Limite de arquivos atingido', description: TEXTS[which] });
}

/**
 * Throws when `incoming` more bytes (plus what `pending` says is under way) would pass a budget: the
 * workspace's total (413) or, for a visitor, their own or their channel's 24-hour budget (429).
 */
async function assertFits(db: Knex | Knex.Transaction, scope: UploaderScope, incoming: number, pending: StorageUsage): Promise<void> {
  const used = await storageUsage(db, scope, STORAGE_BUDGETS.windowSeconds);
  if (used.workspace + pending.workspace + incoming > STORAGE_BUDGETS.workspaceTotal) throw errors.payloadTooLarge(TEXTS.workspace);
  if (!scope.visitor) return;
  if (used.visitor + pending.visitor + incoming > STORAGE_BUDGETS.visitorPerDay) {
    throw await windowFull(db, scope, 'visitor', STORAGE_BUDGETS.visitorPerDay, incoming + pending.visitor);
  }
  if (used.channel + pending.channel + incoming > STORAGE_BUDGETS.channelPerDay) {
    throw await windowFull(db, scope, 'channel', STORAGE_BUDGETS.channelPerDay, incoming + pending.channel);
  }
}

/**
 * Before an upload is read: refuses it when `atMost` bytes would not fit, counting the uploads under way
 * on this node, and otherwise holds those bytes until the returned release is called.
 */
export async function admitUpload(knex: Knex, scope: UploaderScope, atMost: number): Promise<() => void> {
  // Held before the query (no await between reading the others and holding), so parallel requests see each other.
  const pending = reserved(scope);
  const release = reserve(scope, atMost);
  try {
    await assertFits(knex, scope, atMost, pending);
    return release;
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * The exact check, inside the transaction that records the files: the workspace's uploads are
 * serialized there, so what api nodes store at the same time is counted once and never passes a budget.
 */
export function budgetGuard(scope: UploaderScope, bytes: number) {
  return async (trx: Knex.Transaction): Promise<void> => {
    await lockWorkspaceStorage(trx, scope.workspaceId);
    await assertFits(trx, scope, bytes, { workspace: 0, channel: 0, visitor: 0 });
  };
}
