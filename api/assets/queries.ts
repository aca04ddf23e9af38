import type { Knex } from 'knex';
import { StoredFile } from '../models/StoredFile';

export type StoredFileRow = Pick<StoredFile, 'key' | 'fileName' | 'mime' | 'size' | 'workspaceId'>;

export interface NewStoredFile {
  workspaceId: number;
  operatorId: number | null;
  key: string;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
  /** The widget channel and visitor that uploaded it (storage budgets); null for agents and avatars. */
  channelId?: number | null;
  visitorId?: string | null;
}

/**
 * Records stored files in one transaction. `guard` runs first inside it (the storage budgets lock and
 * check there, so two uploads cannot both fit in the same last megabytes).
 */
export async function insertStoredFiles(knex: Knex, rows: NewStoredFile[], guard?: (trx: Knex.Transaction) => Promise<void>): Promise<StoredFileRow[]> {
  return knex.transaction(async (trx) => {
    if (guard) await guard(trx);
    const inserted = await StoredFile.query(trx).insert(rows).returning(['key', 'fileName', 'mime', 'size', 'workspaceId'] as never);
    return inserted as unknown as StoredFileRow[];
  });
}

/**
 * The file a signed download URL names. Deliberately not workspace-scoped: the signature, made by the
 * server for a viewer who could see the message, is the authorization; keys are unique and unguessable.
 */
export async function findStoredFileByKey(knex: Knex, key: string): Promise<StoredFileRow | undefined> {
  return (await StoredFile.query(knex).findOne({ key }).select('key', 'fileName', 'mime', 'size', 'workspaceId')) as StoredFileRow | undefined;
}

/** Whose uploads a storage sum counts. */
export interface UploaderScope {
  workspaceId: number;
  visitor?: { channelId: number; visitorId: string };
}

export interface StorageUsage {
  /** Every stored file of the workspace, sent in a message or not. */
  workspace: number;
  /** Uploads of the channel's visitors within the window. */
  channel: number;
  /** Uploads of this visitor within the window. */
  visitor: number;
}

const num = (v: unknown) => Number(v ?? 0);

/** Uploads of a channel's visitors (or of one of them) stored within the last `windowSeconds`. */
function visitorUploadsWithin(db: Knex | Knex.Transaction, scope: { workspaceId: number; channelId: number; visitorId?: string }, windowSeconds: number) {
  const uploads = db('stored_files')
    .where('workspace_id', scope.workspaceId)
    .where('channel_id', scope.channelId)
    .whereNotNull('visitor_id')
    .where('created_at', '>', db.raw('now() - make_interval(secs => ?)', [windowSeconds]));
  return scope.visitorId ? uploads.where('visitor_id', scope.visitorId) : uploads;
}

/** Bytes stored by the scope's workspace, its visitor's channel and its visitor (the last two: within the window). */
export async function storageUsage(db: Knex | Knex.Transaction, scope: UploaderScope, windowSeconds: number): Promise<StorageUsage> {
  const workspace = db('stored_files').where('workspace_id', scope.workspaceId).sum({ bytes: 'size' });
  if (!scope.visitor) {
    const [row] = await workspace;
    return { workspace: num(row?.bytes), channel: 0, visitor: 0 };
  }
  const { channelId, visitorId } = scope.visitor;
  const channel = visitorUploadsWithin(db, { workspaceId: scope.workspaceId, channelId }, windowSeconds).sum({ bytes: 'size' });
  const visitor = visitorUploadsWithin(db, { workspaceId: scope.workspaceId, channelId, visitorId }, windowSeconds).sum({ bytes: 'size' });
  const { rows } = (await db.raw('SELECT (?) AS workspace, (?) AS channel, (?) AS visitor', [workspace, channel, visitor])) as {
    rows: Array<Record<string, unknown>>;
  };
  const row = rows[0] ?? {};
  return { workspace: num(row.workspace), channel: num(row.channel), visitor: num(row.visitor) };
}

/**
 * Seconds until enough of the window's uploads (of the channel's visitors, or of one visitor) have left
 * it for `incoming` bytes to fit under `budget`; undefined when they would fit without waiting.
 */
export async function secondsUntilWindowFits(
  db: Knex | Knex.Transaction,
  scope: { workspaceId: number; channelId: number; visitorId?: string },
  windowSeconds: number,
  budget: number,
  incoming: number,
): Promise<number | undefined> {
  const uploads = visitorUploadsWithin(db, scope, windowSeconds).select(
    'created_at',
    db.raw('sum(size) OVER (ORDER BY created_at, id) AS freed'),
    db.raw('sum(size) OVER () AS total'),
  );
  const { rows } = (await db.raw(
    `SELECT ceil(extract(epoch FROM u.created_at + make_interval(secs => ?) - now())) AS wait
       FROM (?) u
      WHERE u.total - u.freed + ? <= ?
      ORDER BY u.created_at
      LIMIT 1`,
    [windowSeconds, uploads, incoming, budget],
  )) as { rows: Array<{ wait: unknown }> };
  return rows[0] ? Math.max(1, num(rows[0].wait)) : undefined;
}

/** Serializes the budget check and insert of one workspace's uploads until the transaction ends. */
export async function lockWorkspaceStorage(trx: Knex.Transaction, workspaceId: number): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('stored_files.budget'), ?)", [workspaceId]);
}
