import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { hashOpaqueToken, newOpaqueToken } from './tokens';
import { preparedStatement } from '../db/prepared';
import { coalescing } from '../db/coalesce';

/** A widget visitor's session, found by their token. */
export interface VisitorSession {
  workspaceId: number;
  channelId: number;
  channelIdentifier: string;
  /** The visitor's identity in the channel: customer_platforms.external_id and their MQTT topic level. */
  visitorId: string;
  /** The widget's allowed sites (channels.config.widget.allowedSites), read with the token: empty = any site. */
  allowedSites?: string[];
}

/** Visitor ids are v4 UUIDs: no `/`, `+` or `#`, so they are safe as an MQTT topic level and username. */
export const VISITOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** newOpaqueToken's shape: 32 random bytes, base64url. */
const VISITOR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new visitor of a widget channel with their session token (256 random bits). Only the token's
 * SHA-256 is stored; the token itself is answered once, to the visitor.
 */
export async function createVisitor(db: Knex, channel: { workspaceId: number; id: number }): Promise<{ visitorId: string; token: string }> {
  const visitorId = randomUUID();
  const { token, hash } = newOpaqueToken();
  await insertVisitor.rows(db, { workspaceId: channel.workspaceId, channelId: channel.id, visitorId, tokenHash: hash });
  return { visitorId, token };
}

/** A first contact's second statement, prepared once (api/db/prepared.ts). */
const insertVisitor = preparedStatement('widget_visitor_insert', ['workspaceId', 'channelId', 'visitorId', 'tokenHash'], (db, p) =>
  db('widget_visitors').insert({ workspaceId: p.workspaceId, channelId: p.channelId, visitorId: p.visitorId, tokenHash: p.tokenHash }),
);

interface SessionRow {
  tokenHash: string;
  workspaceId: number;
  channelId: number;
  visitorId: string;
  channelIdentifier: string;
  allowedSites: unknown;
}

/**
 * Every widget message starts here: prepared once (api/db/prepared.ts), and the lookups of messages that
 * arrive while one is on its way go out together (api/db/coalesce.ts; docs/performance.md "Ingest").
 */
const byTokens = preparedStatement('visitors_by_token', ['hashes'], (db, p) =>
  db('widget_visitors as v')
    .join('channels as c', function () {
      this.on('c.id', '=', 'v.channel_id').andOn('c.workspace_id', '=', 'v.workspace_id');
    })
    .whereRaw('v.token_hash = ANY (?::text[])', [p.hashes])
    .where('c.type', 'widget')
    .select('v.token_hash', 'v.workspace_id', 'v.channel_id', 'v.visitor_id', 'c.identifier as channel_identifier', db.raw("c.config #> '{widget,allowedSites}' AS allowed_sites")),
);

const sessionByHash = coalescing<string, SessionRow>(async (db, hashes) => {
  const rows = await byTokens.rows<SessionRow>(db, { hashes: [...new Set(hashes)] });
  return new Map(rows.map((r) => [r.tokenHash, r]));
});

/** The session a visitor token belongs to, or undefined (unknown token, channel deleted). */
export async function findVisitorByToken(db: Knex, token: string): Promise<VisitorSession | undefined> {
  if (!VISITOR_TOKEN.test(token)) return undefined;
  const row = await sessionByHash(db, hashOpaqueToken(token));
  if (!row) return undefined;
  const sites = Array.isArray(row.allowedSites) ? (row.allowedSites as string[]) : [];
  return { workspaceId: row.workspaceId, channelId: row.channelId, channelIdentifier: row.channelIdentifier, visitorId: row.visitorId, allowedSites: sites };
}

/** Drops a visitor whose first message could not be stored, so no token exists without its conversation. */
export async function deleteVisitor(db: Knex, channelId: number, visitorId: string): Promise<void> {
  await db('widget_visitors').where({ channelId, visitorId }).delete();
}

/** Last activity, at most once a minute per visitor so reading messages does not write on every call. */
export async function touchVisitor(db: Knex, channelId: number, visitorId: string): Promise<void> {
  await db('widget_visitors')
    .where({ channelId, visitorId })
    .where('last_seen_at', '<', db.raw("now() - interval '1 minute'"))
    .update({ lastSeenAt: db.fn.now() });
}
