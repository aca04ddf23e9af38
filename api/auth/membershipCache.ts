import type { Knex } from 'knex';
import type pg from 'pg';
import { findWorkspace, type WorkspaceRow } from './queries';

/**
 * A per-process cache of the membership facts every authenticated request checks (level, active flag,
 * member and operator token versions), so the check usually costs no round trip. Three things keep it
 * correct, none of which relies on another:
 *
 * 1. The process that commits a change forgets its own entry right after the commit (forgetMembership /
 *    forgetOperator, called by updateMember, changePassword and resetPassword): on this process the cut
 *    is immediate whatever the database does with notifications.
 * 2. Every entry is trusted for MEMBERSHIP_MAX_AGE_MS at most, counted from before its read started: a
 *    change committed by another process (or by hand in SQL) reaches this one within that bound even if
 *    no notification ever arrives (PGlite accepted LISTEN and never delivered across connections).
 * 3. While this process LISTENs on AUTH_CHANNEL, triggers on workspace_members and operators (migration
 *    20261122250000) NOTIFY there when a deactivation, level change, removal or password change commits,
 *    and the entry is dropped as the notification arrives: usually well inside the bound.
 *
 * The cache never refuses on its own: a caller passes what it requires of the facts (`accepts`), and an
 * entry that does not satisfy it is re-read from the database before the caller refuses. So a member's
 * new token (after a password change, a level change, a reactivation) works at once even where the entry
 * is stale; only the old tokens can outlive their cut, by the bound above at most.
 *
 * A read that started before a change can finish after its forget: a generation counter bumped by every
 * forget keeps such a read out of the cache (docs/auth.md "Token checks without a round trip").
 *
 * The workspace row (`findWorkspace`: what GET /api/workspace answers) is kept the same way, under the same
 * three rules: updateWorkspace and the avatar upload forget it after their commit (forgetWorkspaceRow), every
 * entry ages out after MEMBERSHIP_MAX_AGE_MS, and a trigger on `workspaces` (migration 20261129130500)
 * NOTIFYs "w:{workspaceId}" when the row changes. A missing workspace is never cached.
 */

export const AUTH_CHANNEL = 'balcao_auth';

/**
 * The longest a cached membership fact is trusted. It bounds how long a token cut committed by another
 * api process keeps working here when its notification is lost, and costs one membership read per
 * member, process and period: 5 s keeps a cut well under what a person notices and the reads negligible.
 */
export const MEMBERSHIP_MAX_AGE_MS = 5_000;

export interface MembershipFacts {
  accessLevel: number;
  isActive: boolean;
  memberVersion: number;
  operatorVersion: number;
}

export interface MembershipCache {
  /**
   * The member's facts: from the cache when a young enough entry exists and `accepts` it, otherwise read
   * from the database (and cached). Undefined when the membership does not exist.
   */
  get(workspaceId: number, operatorId: number, accepts?: (facts: MembershipFacts) => boolean): Promise<MembershipFacts | undefined>;
  /** Drops the entry of one membership (its level, active flag or member version changed). */
  forgetMember(workspaceId: number, operatorId: number): void;
  /** Drops every entry of an operator (their operator version changed: password change or reset). */
  forgetOperator(operatorId: number): void;
  /**
   * The workspace row (findWorkspace's columns): from the cache when a young enough entry exists, otherwise
   * read from the database (and cached). Shared between requests: read it, never change it.
   */
  getWorkspace(workspaceId: number): Promise<Readonly<WorkspaceRow> | undefined>;
  /** Drops the cached row of one workspace (its settings changed). */
  forgetWorkspace(workspaceId: number): void;
  /** True while notifications are being received. */
  listening(): boolean;
  close(): Promise<void>;
}

export interface MembershipCacheOptions {
  /**
   * The channel to LISTEN on (default AUTH_CHANNEL). Tests name one nobody notifies to stand for a process
   * whose notifications never arrive (what PGlite did: LISTEN accepted, nothing delivered).
   */
  channel?: string;
}

const MAX_ENTRIES = 50_000;
const RECONNECT_MS = 1000;

interface Entry<T = MembershipFacts> {
  facts: T;
  /** Trusted until this time (epoch ms). */
  until: number;
}

function readFacts(knex: Knex, workspaceId: number, operatorId: number): Promise<MembershipFacts | undefined> {
  return knex('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.workspace_id': workspaceId, 'm.operator_id': operatorId })
    .first('m.access_level', 'm.is_active', 'm.token_version as member_version', 'o.token_version as operator_version');
}

interface Reading<T> {
  generation: number;
  promise: Promise<T | undefined>;
}

/**
 * Runs `read` as the one read of `key` under way (a later one replaces it in `reading`), and lets `keep`
 * cache its result when no forget happened while it ran.
 */
function sharedRead<K, T>(reading: Map<K, Reading<T>>, key: K, generation: () => number, read: () => Promise<T | undefined>, keep: (value: T) => void): Promise<T | undefined> {
  const before = generation();
  const done = () => {
    if (reading.get(key)?.promise === promise) reading.delete(key);
  };
  const promise: Promise<T | undefined> = read().then(
    (value) => {
      done();
      if (value && before === generation()) keep(value);
      return value;
    },
    (err: unknown) => {
      done();
      throw err;
    },
  );
  reading.set(key, { generation: before, promise });
  return promise;
}

interface RawClientFactory {
  acquireRawConnection(): Promise<pg.Client>;
  destroyRawConnection(connection: pg.Client): Promise<void>;
}

export function createMembershipCache(knex: Knex, options: MembershipCacheOptions = {}): MembershipCache {
  const channel = options.channel ?? AUTH_CHANNEL;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid LISTEN channel: ${channel}`);
  const entries = new Map<string, Entry>();
  const byOperator = new Map<number, Set<string>>();
  const workspaces = new Map<number, Entry<Readonly<WorkspaceRow>>>();
  /** Reads under way, with the generation they began in: requests that miss together share one. */
  const readingMembers = new Map<string, Reading<MembershipFacts>>();
  const readingWorkspaces = new Map<number, Reading<Readonly<WorkspaceRow>>>();
  let generation = 0;
  let live = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const forgetAll = () => {
    generation++;
    entries.clear();
    byOperator.clear();
    workspaces.clear();
  };
  const forgetMember = (workspaceId: number, operatorId: number) => {
    generation++;
    entries.delete(`${workspaceId}:${operatorId}`);
  };
  const forgetOperator = (operatorId: number) => {
    generation++;
    for (const key of byOperator.get(operatorId) ?? []) entries.delete(key);
    byOperator.delete(operatorId);
  };
  const forgetWorkspace = (workspaceId: number) => {
    generation++;
    workspaces.delete(workspaceId);
  };
  const onNotification = (payload: string) => {
    // "m:{workspaceId}:{operatorId}" for a membership, "o:{operatorId}" for an operator (every workspace),
    // "w:{workspaceId}" for a workspace row.
    const [kind, a, b] = payload.split(':');
    if (kind === 'm') forgetMember(Number(a), Number(b));
    else if (kind === 'o') forgetOperator(Number(a));
    else if (kind === 'w') forgetWorkspace(Number(a));
    else forgetAll();
  };

  const factory = knex.client as unknown as RawClientFactory;
  const connect = async () => {
    if (closed) return;
    let client: pg.Client | undefined;
    try {
      client = await factory.acquireRawConnection();
      // The listener must not keep a finished process alive.
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      const lost = () => {
        if (listener !== client) return;
        live = false;
        listener = undefined;
        // Notifications may be missed until the listener is back: start every member afresh.
        forgetAll();
        schedule();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (msg) => {
        if (msg.channel === channel) onNotification(msg.payload ?? '');
      });
      await client.query(`LISTEN ${channel}`);
      if (closed) {
        await factory.destroyRawConnection(client).catch(() => undefined);
        return;
      }
      listener = client;
      // Anything cached before this point may have missed a notification.
      forgetAll();
      live = true;
    } catch {
      if (client) await factory.destroyRawConnection(client).catch(() => undefined);
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };
  void connect();

  return {
    listening: () => live,
    forgetMember,
    forgetOperator,
    forgetWorkspace,
    async getWorkspace(workspaceId) {
      const started = Date.now();
      const hit = workspaces.get(workspaceId);
      if (hit) {
        if (started < hit.until) return hit.facts;
        workspaces.delete(workspaceId);
      }
      // A read begun after the last forget is as fresh as one of our own: every request that missed shares it.
      const shared = readingWorkspaces.get(workspaceId);
      if (shared && shared.generation === generation) return shared.promise;
      return sharedRead(readingWorkspaces, workspaceId, () => generation, async () => Object.freeze(await findWorkspace(knex, workspaceId)), (row) => {
        if (closed) return;
        if (workspaces.size >= MAX_ENTRIES) workspaces.clear();
        workspaces.set(workspaceId, { facts: row, until: started + MEMBERSHIP_MAX_AGE_MS });
      });
    },
    async get(workspaceId, operatorId, accepts) {
      const key = `${workspaceId}:${operatorId}`;
      const started = Date.now();
      const hit = entries.get(key);
      if (hit) {
        if (started < hit.until && (!accepts || accepts(hit.facts))) return hit.facts;
        // Too old, or it would refuse: the database decides.
        entries.delete(key);
      }
      // Requests that miss together (32 connections after an entry aged out) share one read begun after the
      // last forget. Shared facts that would refuse are never trusted: this caller reads afresh, so a refusal
      // always comes from a read begun after the request arrived (a new token is never refused by a read
      // that began before the change that made it valid).
      const shared = readingMembers.get(key);
      if (shared && shared.generation === generation) {
        const facts = await shared.promise;
        if (facts && (!accepts || accepts(facts))) return facts;
      }
      // Only rows read with no forget in between are kept. A missing row is never cached: a later insert
      // sends no notification and nobody forgets it.
      return sharedRead(readingMembers, key, () => generation, () => readFacts(knex, workspaceId, operatorId), (facts) => {
        if (closed) return;
        if (entries.size >= MAX_ENTRIES) forgetAll();
        entries.set(key, { facts, until: started + MEMBERSHIP_MAX_AGE_MS });
        let keys = byOperator.get(operatorId);
        if (!keys) byOperator.set(operatorId, (keys = new Set()));
        keys.add(key);
      });
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      forgetAll();
      const client = listener;
      listener = undefined;
      if (client) await factory.destroyRawConnection(client).catch(() => undefined);
    },
  };
}

const caches = new WeakMap<Knex, MembershipCache>();

/**
 * The cache of this knex instance (one per process in practice), created on first use; `options` only
 * apply to that creation.
 */
export function membershipCacheFor(knex: Knex, options?: MembershipCacheOptions): MembershipCache {
  let cache = caches.get(knex);
  if (!cache) {
    cache = createMembershipCache(knex, options);
    caches.set(knex, cache);
  }
  return cache;
}

/**
 * After a commit that changed a membership's level or active flag, or bumped its token version: this
 * process stops trusting what it cached at once (other processes hear the notification, or age it out).
 */
export function forgetMembership(knex: Knex, workspaceId: number, operatorId: number): void {
  caches.get(knex)?.forgetMember(workspaceId, operatorId);
}

/** After a commit that bumped an operator's token version (password change or reset): every workspace. */
export function forgetOperator(knex: Knex, operatorId: number): void {
  caches.get(knex)?.forgetOperator(operatorId);
}

/** After a commit that changed a workspace's row (settings, avatar): this process serves the new row at once. */
export function forgetWorkspaceRow(knex: Knex, workspaceId: number): void {
  caches.get(knex)?.forgetWorkspace(workspaceId);
}

/** Stops the listener of this knex instance's cache, if it has one (before knex.destroy()). */
export async function closeMembershipCache(knex: Knex): Promise<void> {
  const cache = caches.get(knex);
  caches.delete(knex);
  await cache?.close();
}
