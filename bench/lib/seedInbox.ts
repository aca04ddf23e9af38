import pg from 'pg';
import type { Knex } from 'knex';
import { signAccessToken } from '../../api/auth/tokens';
import { JWT_SECRET } from './server';

/**
 * One workspace at the scale (1M conversations, 10M messages at BENCH_SCALE=1), seeded in set
 * statements (generate_series), never row by row: 30 agents in 5 groups, 4 widget channels, one
 * customer, call and 10 messages per conversation; independently drawn: 70% resolved, 40% unassigned,
 * half in a group, a third of the open ones unread. The load runs with session_replication_role = replica (no triggers or
 * foreign-key checks per row) and without the secondary indexes, which are built afterwards, as a bulk
 * import would. Seeded once per bench database and scale (bench_seed), reused by the inbox scenarios.
 */
export interface InboxSeed {
  workspaceId: number;
  conversations: number;
  messages: number;
  admin: { operatorId: number; token: string };
  agent: { operatorId: number; token: string; groupIds: number[] };
  seededInSeconds: number;
}

const AGENTS = 30;
const GROUPS = 5;
const CHANNELS = 4;

let cached: Promise<InboxSeed> | undefined;

export function seedInbox(knex: Knex, databaseUrl: string, scale: number): Promise<InboxSeed> {
  cached ??= load(knex, databaseUrl, scale);
  return cached;
}

async function tokens(seed: Omit<InboxSeed, 'admin' | 'agent'> & { adminId: number; agentId: number; agentGroups: number[] }): Promise<InboxSeed> {
  const sign = (operatorId: number, accessLevel: 10 | 3) => signAccessToken(JWT_SECRET, { operatorId, workspaceId: seed.workspaceId, accessLevel, operatorVersion: 0, memberVersion: 0 });
  return {
    workspaceId: seed.workspaceId,
    conversations: seed.conversations,
    messages: seed.messages,
    seededInSeconds: seed.seededInSeconds,
    admin: { operatorId: seed.adminId, token: await sign(seed.adminId, 10) },
    agent: { operatorId: seed.agentId, token: await sign(seed.agentId, 3), groupIds: seed.agentGroups },
  };
}

async function load(knex: Knex, databaseUrl: string, scale: number): Promise<InboxSeed> {
  const conversations = Math.max(1000, Math.round(1_000_000 * scale));
  const perConversation = 10;
  await knex.raw('CREATE TABLE IF NOT EXISTS bench_seed (scale numeric PRIMARY KEY, seed jsonb NOT NULL)');
  const prior = await knex('bench_seed').where({ scale }).first();
  if (prior) {
    console.log(`inbox seed: reusing ${prior.seed.conversations} conversations from an earlier run`);
    return tokens(prior.seed);
  }
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = async (sql: string, params: unknown[] = []) => (await (params.length ? client.query(sql, params) : client.query(sql))).rows;
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const t = Date.now();
    await q(sql, params);
    console.log(`  seed ${label}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  try {
    await q("SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '256MB'; SET max_parallel_maintenance_workers = 0");
    const [ws] = await q("INSERT INTO workspaces (name, customer_identifier) VALUES ('Bench Inbox', 'bench-inbox-' || md5(random()::text)) RETURNING id");
    const workspaceId = ws.id as number;
    const ops = await q(
      `INSERT INTO operators (name, email, verification_level)
       SELECT CASE WHEN g = 0 THEN 'Dona' ELSE 'Agente ' || g END, 'inbox-' || $1::text || '-' || g || '@bench.dev', 2 FROM generate_series(0, $2::int) g RETURNING id`,
      [workspaceId, AGENTS],
    );
    const [adminId, ...agentIds] = ops.map((r) => r.id as number);
    await q('INSERT INTO workspace_members (workspace_id, operator_id, access_level) SELECT $1, id, CASE WHEN id = $2 THEN 10 ELSE 3 END FROM unnest($3::int[]) id', [workspaceId, adminId, [adminId, ...agentIds]]);
    const groupIds = (await q("INSERT INTO groups (workspace_id, name) SELECT $1, 'Grupo ' || g FROM generate_series(1, $2::int) g RETURNING id", [workspaceId, GROUPS])).map((r) => r.id as number);
    // Each agent is in one group; the measured agent (the first) in two.
    await q('INSERT INTO group_members (workspace_id, group_id, operator_id) SELECT $1, ($2::int[])[1 + (i % $3)], a FROM unnest($4::int[]) WITH ORDINALITY AS t(a, i)', [workspaceId, groupIds, GROUPS, agentIds]);
    await q('INSERT INTO group_members (workspace_id, group_id, operator_id) VALUES ($1, $2, $3)', [workspaceId, groupIds[0], agentIds[0]]);
    const agentGroups = (await q('SELECT group_id FROM group_members WHERE workspace_id = $1 AND operator_id = $2 ORDER BY group_id', [workspaceId, agentIds[0]])).map((r) => r.group_id as number);
    const channelIds = (
      await q("INSERT INTO channels (workspace_id, platform_id, type, name, status) SELECT $1, 4, 'widget', 'Site ' || g, 'connected' FROM generate_series(1, $2::int) g RETURNING id", [workspaceId, CHANNELS])
    ).map((r) => r.id as number);

    // Three public segments in the sidebar of the owner and the measured agent (counted by /inbox/counter).
    const segmentIds = (
      await q(
        `INSERT INTO segments (workspace_id, operator_id, name, is_public, filters, sort)
         VALUES ($1, $2, 'Site 1', true, $3, 1), ($1, $2, 'Grupo 1', true, $4, 2), ($1, $2, 'Sem responsável', true, $5, 3) RETURNING id`,
        [workspaceId, adminId, JSON.stringify({ channels: [channelIds[0]] }), JSON.stringify({ groups: [groupIds[0]] }), JSON.stringify({ assigned: false })],
      )
    ).map((r) => r.id as number);
    await q('INSERT INTO segment_subscriptions (workspace_id, segment_id, operator_id) SELECT $1, s, o FROM unnest($2::int[]) s, unnest($3::int[]) o', [workspaceId, segmentIds, [adminId, agentIds[0]]]);

    // Bulk load without secondary indexes; they are rebuilt below.
    const tables = ['customers', 'customer_platforms', 'calls', 'messages'];
    const indexes = await q(
      `SELECT indexname, indexdef FROM pg_indexes i
       WHERE schemaname = 'public' AND tablename = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [tables],
    );
    for (const ix of indexes) await q(`DROP INDEX ${ix.indexname}`);

    const base = await q("SELECT coalesce(max(id), 0) AS c FROM customers");
    const customerBase = Number(base[0].c);
    const cpBase = Number((await q('SELECT coalesce(max(id), 0) AS c FROM customer_platforms'))[0].c);
    const callBase = Number((await q('SELECT coalesce(max(id), 0) AS c FROM calls'))[0].c);
    const params = { n: conversations, ws: workspaceId };
    await step(
      `${conversations} customers`,
      `INSERT INTO customers (id, workspace_id, name, phone, email, origin, created_at, updated_at)
       SELECT $1::bigint + g, $2, 'Cliente ' || g, '55119' || lpad(g::text, 8, '0'), 'cliente' || g || '@exemplo.com.br', 'visitor',
              now() - make_interval(secs => ($3::int - g) * 30), now()
       FROM generate_series(1, $3::int) g`,
      [customerBase, params.ws, params.n],
    );
    // Conversation g: last activity g*30 s after the first (newest = highest g), jitter so times are not in
    // id order; assignee, group, state and unread drawn independently (seeded, so every run gets the same).
    await q('SELECT setseed(0.42)');
    await step(
      `${conversations} conversations`,
      `INSERT INTO customer_platforms (id, workspace_id, channel_id, customer_id, external_id, operator_id, group_id, current_call_id,
                                       is_finished, has_new_messages, last_message, last_message_at, created_at, updated_at)
       SELECT $1::bigint + g, $2, ($4::int[])[1 + floor(r.c * $5)::int], $3::bigint + g, 'v' || g,
              CASE WHEN r.a < 0.4 THEN NULL ELSE ($6::int[])[1 + floor(r.o * $7)::int] END,
              CASE WHEN r.b < 0.5 THEN NULL ELSE ($8::int[])[1 + floor(r.gr * $9)::int] END,
              $10::bigint + g,
              r.f < 0.7, r.f >= 0.7 AND r.u < 0.33,
              jsonb_build_object('text', 'Mensagem ' || (g * 10), 'type', 0, 'sender', 'customer', 'createdAt', t),
              t, t - interval '1 hour', t
       FROM generate_series(1, $11::int) g,
            LATERAL (SELECT now() - make_interval(secs => ($11::int - g) * 30 + (g::bigint * 7919) % 29)) x(t),
            LATERAL (SELECT random() + 0 * g, random(), random(), random(), random(), random(), random()) r(a, o, b, gr, f, u, c)`,
      [cpBase, params.ws, customerBase, channelIds, CHANNELS, agentIds, AGENTS, groupIds, GROUPS, callBase, params.n],
    );
    await step(
      `${conversations} calls`,
      `INSERT INTO calls (id, workspace_id, customer_platform_id, protocol, operator_id, group_id, created_at, is_finished, finished_at)
       SELECT $1::bigint + cp.id - $2::bigint, cp.workspace_id, cp.id, cp.id - $2::bigint, cp.operator_id, cp.group_id, cp.created_at, cp.is_finished,
              CASE WHEN cp.is_finished THEN cp.last_message_at END
       FROM customer_platforms cp WHERE cp.workspace_id = $3`,
      [callBase, cpBase, params.ws],
    );
    await q(
      `INSERT INTO call_protocol_counters (workspace_id, last_value) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO UPDATE SET last_value = EXCLUDED.last_value`,
      [params.ws, params.n],
    );
    await step(
      `${conversations * perConversation} messages`,
      `INSERT INTO messages (workspace_id, channel_id, customer_platform_id, call_id, content, text, sender, operator_id, created_at, updated_at)
       SELECT cp.workspace_id, cp.channel_id, cp.id, cp.current_call_id,
              jsonb_build_array(jsonb_build_object('insert', 'Mensagem ' || (k + (cp.id - $2::bigint) * 10) || E'\\n')),
              'Mensagem ' || (k + (cp.id - $2::bigint) * 10),
              CASE WHEN k % 2 = 0 THEN 'customer' ELSE 'operator' END,
              CASE WHEN k % 2 = 0 THEN NULL ELSE cp.operator_id END,
              cp.last_message_at - make_interval(secs => ($3::int - k) * 20), cp.last_message_at
       FROM customer_platforms cp, generate_series(1, $3::int) k WHERE cp.workspace_id = $1`,
      [params.ws, cpBase, perConversation],
    );
    for (const table of tables) {
      await q(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    // The triggers were off: the dashboard's open counts (migration 20261128161000) are counted once here.
    await q(
      `INSERT INTO inbox_open_counts (workspace_id, channel_id, shard, waiting, assigned)
       SELECT workspace_id, channel_id, (id % 4)::smallint, count(*) FILTER (WHERE operator_id IS NULL), count(*) FILTER (WHERE operator_id IS NOT NULL)
       FROM customer_platforms WHERE workspace_id = $1 AND NOT is_finished GROUP BY 1, 2, 3`,
      [params.ws],
    );
    // Likewise the inbox's count buckets (migration 20261129213000), which the counter call and matchCount sum.
    await q(
      `INSERT INTO inbox_counts (workspace_id, channel_id, operator_id, group_id, open, unread)
       SELECT workspace_id, channel_id, operator_id, group_id, count(*), count(*) FILTER (WHERE has_new_messages)
       FROM customer_platforms WHERE workspace_id = $1 AND NOT is_finished GROUP BY 1, 2, 3, 4`,
      [params.ws],
    );
    await q('SET session_replication_role = origin');
    for (const ix of indexes) await step(`index ${ix.indexname}`, ix.indexdef);
    await step('vacuum analyze', 'VACUUM (ANALYZE) customers, customer_platforms, calls, messages');
    const seed = { workspaceId, conversations, messages: conversations * perConversation, adminId, agentId: agentIds[0], agentGroups, seededInSeconds: (Date.now() - started) / 1000 };
    await q('INSERT INTO bench_seed (scale, seed) VALUES ($1, $2)', [scale, JSON.stringify(seed)]);
    console.log(`inbox seed: ${conversations} conversations, ${seed.messages} messages in ${seed.seededInSeconds.toFixed(0)} s`);
    return tokens(seed);
  } finally {
    await client.end();
  }
}
