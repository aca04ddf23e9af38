import type { Knex } from 'knex';

/**
 * Recomputes a workspace's report facts and daily rows from its calls, bot sessions and messages
 * (docs/reports.md): the backfill of history recorded before the reports existed, the demo seed's history
 * (written with past moments after the fact), and the repair after a time-zone change. One transaction:
 * readers see the old figures or the new ones. The definitions are the triggers' (same order of messages,
 * same waits), read from the messages instead of the live call columns; agent and group are the call's
 * current ones (the history of transfers is not kept).
 */
export async function rebuildReports(knex: Knex, workspaceId: number): Promise<{ facts: number }> {
  return knex.transaction(async (trx) => {
    // From migration 20261128160000 on, the facts below skip the per-fact aggregate trigger and the daily
    // tables are filled in bulk at the end (one upsert per fact crawled on a large workspace). Pending facts
    // of an enclosing transaction are aggregated first, by their trigger, before anything is deleted.
    const bulk = await trx.schema.hasTable('report_agent_calls');
    if (bulk) {
      await trx.raw('SET CONSTRAINTS report_facts_aggregate IMMEDIATE');
      await trx.raw("SELECT set_config('balcao.report_rebuild', 'on', true)");
    }
    await trx('report_facts').where({ workspaceId }).delete();
    await trx('report_daily').where({ workspaceId }).delete();
    // The rollups exist from migration 20261128075500 on, report_agent_calls from 20261128160000 (earlier
    // migrations run this too).
    for (const rollup of ['report_daily_agent', 'report_daily_total', 'report_agent_calls']) if (await trx.schema.hasTable(rollup)) await trx(rollup).where({ workspaceId }).delete();
    // Each call's channel and since when it needed a person: its opening, or the end of its last bot session
    // (null while a session is still active).
    await trx.raw(
      `INSERT INTO report_calls (call_id, workspace_id, channel_id, opened_at, person_at, bot_active)
       SELECT k.id, k.workspace_id, cp.channel_id, k.created_at,
         CASE WHEN coalesce(b.active, false) THEN NULL ELSE coalesce(b.ended, k.created_at) END, coalesce(b.active, false)
       FROM calls k
       JOIN customer_platforms cp ON cp.id = k.customer_platform_id
       LEFT JOIN LATERAL (
         SELECT bool_or(s.status = 'active') AS active, max(coalesce(s.finished_at, s.created_at)) FILTER (WHERE s.status <> 'active') AS ended
         FROM bot_sessions s WHERE s.call_id = k.id
       ) b ON true
       WHERE k.workspace_id = ?
       ON CONFLICT (call_id) DO UPDATE SET channel_id = EXCLUDED.channel_id, opened_at = EXCLUDED.opened_at, person_at = EXCLUDED.person_at, bot_active = EXCLUDED.bot_active`,
      [workspaceId],
    );
    // Opened.
    await trx.raw(
      `SELECT count(report_record(k.workspace_id, k.id, 1::smallint, k.created_at, NULL, k.operator_id, k.group_id, rc.channel_id))
       FROM calls k JOIN report_calls rc ON rc.call_id = k.id WHERE k.workspace_id = ?`,
      [workspaceId],
    );
    // Answers: the k-th agent COMMON message of a call answers the customer messages written after the
    // (k-1)-th, from the first of them (a burst counts once). The first answer is also the call's TME.
    await trx.raw(
      `WITH m AS (
         SELECT msg.call_id, msg.created_at, msg.sender = 'customer' AS cust,
           coalesce(sum(CASE WHEN msg.sender = 'operator' THEN 1 ELSE 0 END) OVER (PARTITION BY msg.call_id ORDER BY msg.created_at, msg.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS k
         FROM messages msg
         WHERE msg.workspace_id = ? AND (msg.sender = 'customer' OR (msg.sender = 'operator' AND msg.type = 0))
       ),
       waits AS (SELECT call_id, k, min(created_at) AS since FROM m WHERE cust GROUP BY call_id, k),
       answers AS (SELECT call_id, k, created_at AS at FROM m WHERE NOT cust),
       resp AS (
         SELECT a.call_id, a.k, a.at, w.since, rc.person_at, rc.channel_id, c.workspace_id, c.operator_id, c.group_id
         FROM answers a JOIN waits w USING (call_id, k) JOIN report_calls rc ON rc.call_id = a.call_id JOIN calls c ON c.id = a.call_id
         -- An answer while a bot still held the call measures nothing (the triggers see no person needed then);
         -- without a bot, an answer stamped before the call's opening (a late provider timestamp) waited 0.
         WHERE rc.person_at IS NOT NULL AND (rc.person_at <= a.at OR NOT EXISTS (SELECT 1 FROM bot_sessions s WHERE s.call_id = a.call_id))
       ),
       tme AS (
         SELECT count(report_record(workspace_id, call_id, 3::smallint, at, greatest(0, round(extract(epoch FROM at - person_at) * 1000))::bigint, operator_id, group_id, channel_id)) AS n
         FROM resp WHERE k = 0
       )
       SELECT (SELECT n FROM tme) AS tme,
         count(report_record(workspace_id, call_id, 4::smallint, at, greatest(0, round(extract(epoch FROM at - greatest(since, person_at)) * 1000))::bigint, operator_id, group_id, channel_id)) AS tmr
       FROM resp`,
      [workspaceId],
    );
    // Resolved, and TMA from the first agent reply.
    await trx.raw(
      `SELECT count(report_record(k.workspace_id, k.id, 2::smallint, k.finished_at, NULL, k.operator_id, k.group_id, rc.channel_id)),
         count(CASE WHEN k.first_response_at IS NOT NULL THEN report_record(k.workspace_id, k.id, 5::smallint, k.finished_at,
           greatest(0, round(extract(epoch FROM k.finished_at - k.first_response_at) * 1000))::bigint, k.operator_id, k.group_id, rc.channel_id) END)
       FROM calls k JOIN report_calls rc ON rc.call_id = k.id WHERE k.workspace_id = ? AND k.is_finished`,
      [workspaceId],
    );
    if (bulk) {
      await trx.raw("SELECT set_config('balcao.report_rebuild', 'off', true)");
      await trx.raw('SET CONSTRAINTS report_facts_aggregate DEFERRED');
      await aggregateInBulk(trx, workspaceId);
    }
    const [{ n }] = await trx('report_facts').where({ workspaceId }).count({ n: '*' });
    return { facts: Number(n) };
  });
}

const DAILY_TABLES = [
  { table: 'report_daily', keys: ['workspace_id', 'day', 'operator_id', 'channel_id', 'group_id'] },
  { table: 'report_daily_agent', keys: ['workspace_id', 'day', 'operator_id'] },
  { table: 'report_daily_total', keys: ['workspace_id', 'day'] },
];

/**
 * The daily tables and the team table's pairs of a workspace from its facts, in one GROUP BY each: the same
 * keys, counts, sums, histogram buckets and calls_count the aggregate trigger writes fact by fact (the
 * aggregates test holds both against a recomputation).
 */
async function aggregateInBulk(trx: Knex.Transaction, workspaceId: number): Promise<void> {
  const time = (kind: number) =>
    `coalesce(sum(n) FILTER (WHERE kind = ${kind}), 0), coalesce(sum(s) FILTER (WHERE kind = ${kind}), 0), report_hist(array_agg(b) FILTER (WHERE kind = ${kind}), array_agg(n) FILTER (WHERE kind = ${kind}))`;
  for (const { table, keys } of DAILY_TABLES) {
    await trx.raw(
      `INSERT INTO ${table} (${keys.join(', ')}, new_count, resolved_count, tme_count, tme_sum_ms, tme_hist, tmr_count, tmr_sum_ms, tmr_hist, tma_count, tma_sum_ms, tma_hist)
       SELECT ${keys.join(', ')}, coalesce(sum(n) FILTER (WHERE kind = 1), 0), coalesce(sum(n) FILTER (WHERE kind = 2), 0), ${time(3)}, ${time(4)}, ${time(5)}
       FROM (SELECT workspace_id, day, coalesce(operator_id, 0) AS operator_id, channel_id, coalesce(group_id, 0) AS group_id, kind,
               CASE WHEN kind >= 3 THEN report_bucket(ms) ELSE 1 END AS b, count(*) AS n, coalesce(sum(ms), 0) AS s
             FROM report_facts WHERE workspace_id = ? GROUP BY 1, 2, 3, 4, 5, 6, 7) x
       GROUP BY ${keys.join(', ')}`,
      [workspaceId],
    );
  }
  // Each (call, agent) pair once, under the agent's first fact in the call (docs/reports.md "Total per agent").
  await trx.raw(
    `INSERT INTO report_agent_calls (call_id, operator_id, workspace_id, day, channel_id, group_id)
     SELECT DISTINCT ON (call_id, operator_id) call_id, operator_id, workspace_id, day, channel_id, coalesce(group_id, 0)
     FROM report_facts WHERE workspace_id = ? AND operator_id IS NOT NULL ORDER BY call_id, operator_id, id`,
    [workspaceId],
  );
  for (const { table, keys } of DAILY_TABLES) {
    await trx.raw(
      `UPDATE ${table} d SET calls_count = a.n
       FROM (SELECT ${keys.join(', ')}, count(*)::int AS n FROM report_agent_calls WHERE workspace_id = ? GROUP BY ${keys.join(', ')}) a
       WHERE (${keys.map((k) => `d.${k}`).join(', ')}) = (${keys.map((k) => `a.${k}`).join(', ')})`,
      [workspaceId],
    );
  }
}
