import type { Knex } from 'knex';
import type pg from 'pg';

/**
 * A per-process cache of the membership facts every authenticated request checks (level, active flag,
 * member and operator token versions), so the check costs no round trip. It is only trusted while this
 * process LISTENs on AUTH_CHANNEL: triggers on workspace_members and operators (migration
 * 20261122250000) NOTIFY there when a deactivation, level change, removal or password change commits,
 * and the entry is dropped as the notification arrives. Without a live listener (not yet connected,
 * connection lost, a server without LISTEN) every lookup reads the database, as before.
 *
 * A read that started before a change can finish after its notification: a generation counter bumped
 * by every notification keeps such a read out of the cache (docs/auth.md "Token checks without a round trip").
 */

export const AUTH_CHANNEL = 'balcao_auth';

export interface MembershipFacts {
  accessLevel: number;
  isActive: boolean;
  memberVersion: number;
  operatorVersion: number;
}

export interface MembershipCache {
  get(workspaceId: number, operatorId: number): Promise<MembershipFacts | undefined>;
  /** True while notifications are being received (entries are being cached). */
  listening(): boolean;
  close(): Promise<void>;
}

const MAX_ENTRIES = 50_000;
const RECONNECT_MS = 1000;

function readFacts(knex: Knex, workspaceId: number, operatorId: number): Promise<MembershipFacts | undefined> {
  return knex('workspace_members as m')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.workspace_id': workspaceId, 'm.operator_id': operatorId })
    .first('m.access_level', 'm.is_active', 'm.token_version as member_version', 'o.token_version as operator_version');
}

interface RawClientFactory {
  acquireRawConnection(): Promise<pg.Client>;
  destroyRawConnection(connection: pg.Client): Promise<void>;
}

export function createMembershipCache(knex: Knex): MembershipCache {
  const entries = new Map<string, MembershipFacts>();
  const byOperator = new Map<number, Set<string>>();
  let generation = 0;
  let live = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const forgetAll = () => {
    generation++;
    entries.clear();
    byOperator.clear();
  };
  const forget = (payload: string) => {
    generation++;
    // "m:{workspaceId}:{operatorId}" for a membership, "o:{operatorId}" for an operator (every workspace).
    const [kind, a, b] = payload.split(':');
    if (kind === 'm') {
      entries.delete(`${a}:${b}`);
    } else if (kind === 'o') {
      for (const key of byOperator.get(Number(a)) ?? []) entries.delete(key);
      byOperator.delete(Number(a));
    } else {
      forgetAll();
    }
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
        forgetAll();
        schedule();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (msg) => {
        if (msg.channel === AUTH_CHANNEL) forget(msg.payload ?? '');
      });
      await client.query(`LISTEN ${AUTH_CHANNEL}`);
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
    async get(workspaceId, operatorId) {
      const key = `${workspaceId}:${operatorId}`;
      if (live) {
        const hit = entries.get(key);
        if (hit) return hit;
      }
      const before = generation;
      const facts = await readFacts(knex, workspaceId, operatorId);
      // Only rows read entirely while listening, with no notification in between, are kept. A missing
      // row is never cached: a later insert sends no notification.
      if (facts && live && before === generation) {
        if (entries.size >= MAX_ENTRIES) forgetAll();
        entries.set(key, facts);
        let keys = byOperator.get(operatorId);
        if (!keys) byOperator.set(operatorId, (keys = new Set()));
        keys.add(key);
      }
      return facts;
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

/** The cache of this knex instance (one per process in practice), created on first use. */
export function membershipCacheFor(knex: Knex): MembershipCache {
  let cache = caches.get(knex);
  if (!cache) {
    cache = createMembershipCache(knex);
    caches.set(knex, cache);
  }
  return cache;
}

/** Stops the listener of this knex instance's cache, if it has one (before knex.destroy()). */
export async function closeMembershipCache(knex: Knex): Promise<void> {
  const cache = caches.get(knex);
  caches.delete(knex);
  await cache?.close();
}
