import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { ChannelDeps, ChannelRecord } from '../../api/channels/adapter';
import { ChannelSendError } from '../../api/channels/sendErrors';
import { setChannelStatus } from '../../api/channels/channelStatus';
import { cloudLineOf } from '../../api/channels/whatsapp/cloudLine';
import { sendGraphMessage } from '../../api/channels/whatsapp/client';
import { sendWhatsapp, whatsappRouteFor } from '../../api/channels/whatsapp/sendWhatsapp';
import type { QrLiveSockets } from '../channels/whatsapp/liveSockets';
import { deltaToWhatsappText } from '../../api/channels/whatsapp/mapping';
import { publishCampaignProgress } from '../../api/campaigns/realtime';
import { campaignIdempotencyKey, campaignIdempotencyPrefix, fillPlaceholders, placeholderCount } from '../../api/campaigns/message';
import type { CampaignTemplate } from '../../api/models/Campaign';
import type { ActivityDeps } from '../deps';
import type { StoredFileRef } from '../../api/conversations/content';
import { campaignQrContent, cloudHeaderParameter } from './campaignMedia';
import { LineRateLimiters } from './lineRate';
import { OPTED_OUT_REASON } from './processCampaignFile';

export interface CampaignSendOptions {
  /** Sends per second on a Cloud API line (Meta's default throughput is 80 messages/s). */
  cloudRatePerSecond: number;
  /** Sends per second on a QR (WhatsApp Web) line: far lower, a phone is not a bulk sender. */
  qrRatePerSecond: number;
  /**
   * Sends of one Cloud API burst waiting on Meta at once (each committed as handed over before its call):
   * at 80/s and Meta's ~100–200 ms per call, 8–16 calls are on their way at any moment. A crash leaves at
   * most this many numbers whose call may have arrived (failed as interrupted, never sent again).
   */
  cloudConcurrency: number;
  /**
   * Claim statements running ahead of the sends (each claims one number). A number claimed and not yet
   * handed over (waiting for its slot) goes back to `pending` after a crash and is sent then.
   */
  claimsAhead: number;
  /** No number is claimed once a burst has run this long (a slow line's burst stays far under the activity's 5 minutes). */
  burstMs: number;
  /** Transient failures of one number before it is failed. */
  maxAttempts: number;
  /** Backoff after a transient failure (doubled per attempt, capped). */
  initialRetryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_CAMPAIGN_SEND_OPTIONS: CampaignSendOptions = { cloudRatePerSecond: 80, qrRatePerSecond: 1, cloudConcurrency: 16, claimsAhead: 1, burstMs: 60_000, maxAttempts: 5, initialRetryMs: 5_000, maxRetryMs: 5 * 60_000 };

export type CampaignSendResult =
  /** `processed` numbers left pending (sent or failed); `remaining` says whether any is still pending. */
  | { outcome: 'progress'; processed: number; remaining: boolean }
  /** The campaign is no longer executing (paused, canceled): the workflow waits for a signal. */
  | { outcome: 'stopped'; status: string }
  /** The line cannot send (disconnected, removed, QR not linked): the campaign was paused with `reason`. */
  | { outcome: 'line_down'; reason: string }
  /** A transient provider failure: try the same number again after `delayMs`. */
  | { outcome: 'retry'; delayMs: number; processed: number }
  /**
   * A QR line whose socket lives in another worker process: nothing was claimed here; the workflow runs the
   * burst again on `taskQueue`, the queue only that process polls (docs/campaigns.md "QR lines").
   */
  | { outcome: 'route'; taskQueue: string };

export interface CampaignSendInput {
  campaignId: number;
  max: number;
  /** Send from this process whatever the route says (the socket worker's queue went unanswered). */
  routed?: boolean;
}

export const INTERRUPTED_REASON = 'Envio interrompido por uma falha no meio do envio: não repetido para não enviar duas vezes (pode ter sido entregue).';
const LINE_REMOVED = 'A linha de WhatsApp da campanha foi removida.';
const LINE_DISCONNECTED = 'A linha de WhatsApp da campanha está desconectada. Reconecte a linha e retome a campanha.';

interface CampaignRow {
  id: number;
  workspaceId: number;
  channelId: number | null;
  status: string;
  message: unknown[];
  template: CampaignTemplate | null;
  /** The message's optional attachment (campaignMedia.ts). */
  mediaFile: StoredFileRef | null;
}

interface NumberRow {
  id: number;
  /** The claim's `sending_at` as PostgreSQL prints it (microseconds): the hand-over checks the row is still this claim's. */
  claimedAt: string;
  normalized: string;
  variables: Record<string, string>;
  status: string;
  externalId: string | null;
  attempts: number;
  /** The workspace's opt-outs hold the number (a 'SAIR' after the file was processed): not sent. */
  optedOut: boolean;
}

/**
 * Sends up to `max` pending numbers of an executing campaign at the line's rate (the workflow asks for one
 * at a time when there is a wait between messages); on a Cloud line up to `cloudConcurrency` sends wait on
 * Meta at once. Exactly once per number: the row is claimed (committed `sending` with its idempotency key
 * `campaign:{id}:{numberId}`), waits for the line's slot, is committed handed over (`handed_at`) right
 * before the provider is called, and `sent` with the provider's id by the next claim's statement (or at the
 * end of the burst). A row found `sending` again (a worker killed meanwhile) that was handed over is never
 * called again — it is failed with INTERRUPTED_REASON, since WhatsApp has no idempotency key to ask whether
 * it arrived; one that was only claimed never left, so it goes back to `pending` and is sent. The campaign's
 * status is read before every number, so a pause or a cancel saved by the api stops the burst at the next
 * number.
 */
export const sendCampaignNumbers =
  (deps: ActivityDeps, options: Partial<CampaignSendOptions> = {}, qrSockets?: QrLiveSockets, limiters = new LineRateLimiters()) =>
  async ({ campaignId, max, routed }: CampaignSendInput): Promise<CampaignSendResult> => {
    // The rates: CAMPAIGN_CLOUD_RATE_PER_SECOND / CAMPAIGN_QR_RATE_PER_SECOND, unless the caller set its own.
    const fromConfig = deps.config ? { cloudRatePerSecond: deps.config.campaignCloudRatePerSecond, qrRatePerSecond: deps.config.campaignQrRatePerSecond } : {};
    const o = { ...DEFAULT_CAMPAIGN_SEND_OPTIONS, ...fromConfig, ...options };
    if (!deps.config) throw new Error('sendCampaignNumbers needs the process config');
    const channelDeps: ChannelDeps = { knex: deps.knex, logger: deps.logger, publisher: deps.publisher, config: deps.config, qrSockets };
    let processed = 0;
    /** Numbers found opted out when claimed (not sent, not counted as processed: no wait is owed for them). */
    let skipped = 0;
    try {
      const campaign: CampaignRow | undefined = await deps.knex('campaigns').where({ id: campaignId }).first('id', 'workspace_id', 'channel_id', 'status', 'message', 'template', 'media_file');
      if (!campaign) return { outcome: 'stopped', status: 'missing' };
      if (campaign.status !== 'executing') return { outcome: 'stopped', status: campaign.status };
      const channel = campaign.channelId
        ? await deps.knex('channels').where({ workspaceId: campaign.workspaceId, id: campaign.channelId }).first('id', 'workspace_id', 'type', 'platform_id', 'identifier', 'description', 'name', 'config', 'status')
        : undefined;
      if (!channel) return lineDown(deps, campaignId, LINE_REMOVED);
      if (channel.status === 'disconnected') return lineDown(deps, campaignId, LINE_DISCONNECTED);
      const record: ChannelRecord = { ...channel, config: channel.config ?? {} };
      const cloud = cloudLineOf(deps.config, record);
      // A QR line sends only where its socket lives: elsewhere, before claiming anything, name that queue.
      if (!cloud && !routed) {
        const taskQueue = await whatsappRouteFor(channelDeps, record);
        if (taskQueue) return { outcome: 'route', taskQueue };
      }
      // The line's own limiter (shared by every campaign and burst on it in this process): sends leave on its
      // schedule, not 1/rate after the previous one came back (lineRate.ts).
      const limiter = limiters.for(channel.id, cloud ? o.cloudRatePerSecond : o.qrRatePerSecond);
      // A Cloud line may have a few sends waiting on Meta at once, so the time each takes does not slow the
      // rate; a QR line sends one at a time through its socket.
      const concurrency = cloud ? Math.max(1, o.cloudConcurrency) : 1;
      const claimsAhead = cloud ? Math.max(1, o.claimsAhead) : 1;
      processed += await settleLeftovers(deps.knex, campaignId);

      /** Sends answered, waiting to be recorded by the next claim (one statement records them and claims). */
      let answered: Outcome[] = [];
      const inFlight = new Set<Promise<void>>();
      /** What a failed send asked for (no number is claimed after it), and why the claims ended. */
      const burst: { halt: Halt | null; end: { kind: 'stopped'; status: string } | { kind: 'none' } | null; failure?: { err: unknown } } = { halt: null, end: null };

      /**
       * Commits the number handed over, right before its call: from here a crash fails it "pode ter sido
       * entregue" instead of sending it again. False: the claim is no longer this burst's (another attempt
       * took the number over), so it is not called.
       */
      const handOver = async (row: NumberRow, slot: { leaving(): void }): Promise<boolean> => {
        if (!(await markHanded(deps.knex, row))) {
          deps.logger.warn({ campaignId, numberId: row.id }, 'campaign number no longer claimed by this burst: not sent');
          return false;
        }
        slot.leaving();
        return true;
      };

      const sendOne = async (row: NumberRow, slot: { leaving(): void }): Promise<void> => {
        const idempotencyKey = campaignIdempotencyKey(campaignId, row.id);
        try {
          let externalId: string | undefined;
          if (cloud) {
            const body = cloudBody(campaign, row, await cloudHeaderParameter(channelDeps, cloud, campaign.mediaFile));
            if (!(await handOver(row, slot))) return;
            externalId = await sendGraphMessage(deps.config!, cloud, body);
          } else {
            const text = fillPlaceholders(deltaToWhatsappText(campaign.message), row.variables);
            const content = campaignQrContent(text, campaign.mediaFile);
            if (!(await handOver(row, slot))) return;
            // Through this process's live socket (the burst was routed here); the key fixes the WhatsApp id.
            const sent = await sendWhatsapp(channelDeps, record, `${row.normalized}@s.whatsapp.net`, content, idempotencyKey);
            externalId = sent.externalId;
          }
          answered.push({ id: row.id, status: 'sent', externalId: externalId ?? null, error: null });
          processed++;
        } catch (err) {
          const e = err instanceof ChannelSendError ? err : new ChannelSendError('Falha inesperada ao enviar a mensagem.', { transient: true });
          if (!(err instanceof ChannelSendError)) deps.logger.error({ err, campaignId, numberId: row.id }, 'campaign send threw an unexpected error');
          // No send happened: the number goes back to pending.
          // A QR line without a live socket here (not linked, reconnecting, logged out) did not send either.
          const qrDown = !cloud && (e.code === 'qr_not_connected' || e.code === 'qr_disconnected' || /não está conectada|está desconectada/.test(e.message));
          if (e.disconnect || qrDown) {
            if (burst.halt?.kind !== 'line_down') burst.halt = { kind: 'line_down', reason: e.disconnect ? `${LINE_DISCONNECTED} (${e.message})` : LINE_DISCONNECTED };
            await release(deps.knex, row.id);
            if (e.disconnect) await setChannelStatus(deps, record, 'disconnected');
            return;
          }
          if (e.transient && row.attempts < o.maxAttempts) {
            const delayMs = Math.max(Math.min(o.maxRetryMs, o.initialRetryMs * 2 ** (row.attempts - 1)), Math.min(e.retryAfterMs ?? 0, o.maxRetryMs));
            if (!burst.halt) burst.halt = { kind: 'retry', delayMs };
            else if (burst.halt.kind === 'retry') burst.halt.delayMs = Math.max(burst.halt.delayMs, delayMs);
            await release(deps.knex, row.id, true);
            return;
          }
          answered.push({ id: row.id, status: 'failed', externalId: null, error: e.message });
          processed++;
        }
      };

      const burstEnds = Date.now() + o.burstMs;
      // Claims run a little ahead of the sends (up to `claimsAhead` statements at once, each on its own
      // connection; SKIP LOCKED gives each its own number), so a slow round trip to the database does not
      // hold the line back. Each claim also records the numbers answered before it started.
      const claims: Promise<Claim>[] = [];
      let [published, publishedAt, publishing] = [0, Date.now(), Promise.resolve()];
      let asked = 0;
      const topUp = () => {
        while (claims.length < claimsAhead && asked < max && Date.now() < burstEnds && !burst.halt && !burst.end) {
          const toRecord = answered;
          answered = [];
          claims.push(claimNext(deps.knex, campaignId, toRecord));
          asked++;
        }
      };
      try {
        for (;;) {
          // Every call on its way: wait for one to answer before claiming the next number, heartbeating (a
          // slow provider is not a dead worker).
          while (inFlight.size >= concurrency) {
            heartbeat();
            await oneAnswered(inFlight);
          }
          heartbeat();
          topUp();
          if (!claims.length) break;
          const claimed = await claims.shift()!;
          // A long burst shows its progress live about once a second (the claim just recorded what was answered).
          if (processed > published && Date.now() - publishedAt >= 1000) {
            [published, publishedAt] = [processed, Date.now()];
            publishing = publishing.then(() => publishCampaignProgress(deps, campaignId)).catch((err: unknown) => deps.logger.warn({ err, campaignId }, 'campaign progress not published'));
          }
          if (claimed.kind !== 'row') {
            // Claims ahead run side by side, so "none left" may come before another claim's number: that one
            // still goes out. A campaign no longer executing stops here (numbers claimed ahead go back).
            if (burst.end?.kind !== 'stopped') burst.end = claimed;
            if (claimed.kind === 'stopped') break;
            continue;
          }
          if (claimed.row.optedOut) {
            // Not sent, so it does not use up the burst: the next number is claimed in its place.
            await skipOptedOut(deps.knex, campaignId, claimed.row.id);
            skipped++;
            asked--;
            continue;
          }
          const slot = burst.halt ? null : await limiter.take(heartbeat);
          if (burst.halt || !slot) {
            // A send that failed meanwhile stopped the burst: this number never left.
            await release(deps.knex, claimed.row.id);
            break;
          }
          const sending: Promise<void> = sendOne(claimed.row, slot)
            .catch((err: unknown) => {
              burst.failure ??= { err };
            })
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
      } finally {
        // Numbers claimed ahead and not sent go back to pending (a claim that failed has nothing to give back).
        for (const c of (await Promise.allSettled(claims.splice(0))).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))) {
          if (c.kind === 'row') await release(deps.knex, c.row.id);
        }
        while (inFlight.size) {
          heartbeat();
          await oneAnswered(inFlight);
        }
        if (answered.length) await recordOutcomes(deps.knex, campaignId, answered);
        await publishing;
      }
      // A statement of a failed send's path threw (the database away): the activity fails and is retried.
      if (burst.failure) throw burst.failure.err;
      const { halt, end } = burst;
      if (halt?.kind === 'line_down') return lineDown(deps, campaignId, halt.reason, processed);
      if (halt?.kind === 'retry') return { outcome: 'retry', delayMs: halt.delayMs, processed };
      if (end?.kind === 'stopped') return processed ? { outcome: 'progress', processed, remaining: true } : { outcome: 'stopped', status: end.status };
      if (end?.kind === 'none') return { outcome: 'progress', processed, remaining: false };
      const remaining = await deps.knex('campaign_numbers').where({ campaignId }).whereIn('status', ['pending', 'sending']).first('id');
      return { outcome: 'progress', processed, remaining: Boolean(remaining) };
    } finally {
      if (processed || skipped) await publishCampaignProgress(deps, campaignId);
    }
  };

/** Until one of the calls on their way is answered, or 2 s (to heartbeat again). */
async function oneAnswered(inFlight: Set<Promise<void>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([...inFlight, new Promise<void>((r) => (timer = setTimeout(r, 2000)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Tells Temporal this attempt is alive (a killed worker is noticed by the heartbeat timeout); a no-op outside an activity. */
function heartbeat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // Called directly (tests, bench): no activity context.
  }
}

type Halt = { kind: 'line_down'; reason: string } | { kind: 'retry'; delayMs: number };

type Claim = { kind: 'row'; row: NumberRow } | { kind: 'none' } | { kind: 'stopped'; status: string };

/**
 * Numbers a dead attempt left `sending` (killed between claim and settle). Handed over to the provider: never
 * sent again — settled `sent` when the provider's id was recorded, else failed as interrupted. Only claimed
 * (waiting for the line's slot when the attempt died): the call never started, so back to `pending`, sent
 * by this burst. Answers how many were settled.
 */
async function settleLeftovers(knex: Knex, campaignId: number): Promise<number> {
  const rows: { id: number; externalId: string | null; handedAt: Date | null }[] = await knex('campaign_numbers').where({ campaignId, status: 'sending' }).select('id', 'external_id', 'handed_at');
  const settled = rows.filter((r) => r.externalId || r.handedAt);
  if (settled.length) {
    await recordOutcomes(
      knex,
      campaignId,
      settled.map((r) => (r.externalId ? { id: r.id, status: 'sent', externalId: r.externalId, error: null } : { id: r.id, status: 'failed', externalId: null, error: INTERRUPTED_REASON })),
    );
  }
  const neverLeft = rows.filter((r) => !r.externalId && !r.handedAt).map((r) => r.id);
  if (neverLeft.length) {
    await knex('campaign_numbers')
      .whereIn('id', neverLeft)
      .where({ campaignId, status: 'sending' })
      .whereNull('handed_at')
      .whereNull('external_id')
      .update({ status: 'pending', sendingAt: null, attempts: knex.raw('greatest(attempts - 1, 0)') });
  }
  return settled.length;
}

/**
 * The number committed as handed over to the provider, in one UPDATE by id, only while it is still the claim
 * this burst made (`sending` since `claimedAt`, not yet handed): answers whether it was.
 */
async function markHanded(knex: Knex, row: NumberRow): Promise<boolean> {
  const { rowCount } = (await knex.raw(
    `UPDATE campaign_numbers SET handed_at = now() WHERE id = ? AND status = 'sending' AND handed_at IS NULL AND sending_at = ?::timestamptz`,
    [row.id, row.claimedAt],
  )) as { rowCount: number };
  return rowCount === 1;
}

type Outcome = { id: number; status: 'sent' | 'failed'; externalId: string | null; error: string | null };

/**
 * Numbers' outcomes and the campaign's counters in one statement, so the totals always match the rows (only
 * numbers still `sending` count). As a WITH prefix, so the next claim can run in the same statement.
 */
function outcomesSql(campaignId: number, outcomes: Outcome[]): { sql: string; bindings: (string | number | null)[] } {
  if (!outcomes.length) return { sql: '', bindings: [] };
  return {
    sql: `WITH o(id, status, external_id, error) AS (VALUES ${outcomes.map(() => '(?::integer, ?::text, ?::text, ?::text)').join(', ')}),
     settled AS (
       UPDATE campaign_numbers n SET status = o.status, external_id = o.external_id, error = o.error, sent_at = CASE WHEN o.status = 'sent' THEN now() ELSE NULL END
       FROM o WHERE n.id = o.id AND n.campaign_id = ? AND n.status = 'sending' RETURNING n.status),
     counted AS (
       UPDATE campaigns SET total_numbers_executed = total_numbers_executed + (SELECT count(*) FROM settled),
         total_numbers_failed = total_numbers_failed + (SELECT count(*) FROM settled WHERE status = 'failed'), updated_at = now()
       WHERE id = ? AND EXISTS (SELECT 1 FROM settled))
     `,
    bindings: [...outcomes.flatMap((x) => [x.id, x.status, x.externalId, x.error]), campaignId, campaignId],
  };
}

async function recordOutcomes(knex: Knex, campaignId: number, outcomes: Outcome[]): Promise<void> {
  const prefix = outcomesSql(campaignId, outcomes);
  await knex.raw(`${prefix.sql} SELECT 1`, prefix.bindings);
}

/**
 * The next pending number of an executing campaign, committed `sending` with its idempotency key in one
 * statement (the campaign's status is read by the same statement, so a pause saved before stops here). The
 * same statement records the numbers answered since the last claim: one round trip per number.
 */
async function claimNext(knex: Knex, campaignId: number, answered: Outcome[] = []): Promise<Claim> {
  const prefix = outcomesSql(campaignId, answered);
  const { rows } = (await knex.raw(
    `${prefix.sql}
     UPDATE campaign_numbers SET status = 'sending', idempotency_key = ? || id, sending_at = now(), handed_at = NULL, attempts = attempts + 1
     WHERE id = (SELECT n.id FROM campaign_numbers n
                 WHERE n.campaign_id = ? AND n.status = 'pending'
                   AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = ? AND c.status = 'executing')
                 ORDER BY n.id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, normalized, variables, status, external_id, attempts, sending_at::text AS claimed_at,
       EXISTS (SELECT 1 FROM campaign_opt_outs o WHERE o.workspace_id = campaign_numbers.workspace_id AND o.phone = campaign_numbers.normalized) AS opted_out`,
    [...prefix.bindings, campaignIdempotencyPrefix(campaignId), campaignId, campaignId],
  )) as { rows: { id: number; normalized: string; variables: Record<string, string>; status: string; external_id: string | null; attempts: number; claimed_at: string; opted_out: boolean }[] };
  const r = rows[0];
  if (r) return { kind: 'row', row: { id: r.id, claimedAt: r.claimed_at, normalized: r.normalized, variables: r.variables, status: r.status, externalId: r.external_id, attempts: r.attempts, optedOut: r.opted_out } };
  const c = await knex('campaigns').where({ id: campaignId }).first('status');
  return !c || c.status !== 'executing' ? { kind: 'stopped', status: c?.status ?? 'missing' } : { kind: 'none' };
}

/**
 * A claimed number whose customer opted out after the file was processed (issue 15: 'SAIR' skips the
 * workspace's later campaigns, and a campaign may send days after its file was read): `opted_out` with the
 * reason, and out of `totalNumbers` into `totalNumbersInvalid`, as if the file had been read after the 'SAIR'.
 */
async function skipOptedOut(knex: Knex, campaignId: number, numberId: number): Promise<void> {
  await knex.raw(
    `WITH skipped AS (
       UPDATE campaign_numbers SET status = 'opted_out', error = ?, sending_at = NULL WHERE id = ? AND campaign_id = ? AND status = 'sending' RETURNING id)
     UPDATE campaigns SET total_numbers = greatest(total_numbers - 1, 0), total_numbers_invalid = total_numbers_invalid + 1, updated_at = now()
     WHERE id = ? AND EXISTS (SELECT 1 FROM skipped)`,
    [OPTED_OUT_REASON, numberId, campaignId, campaignId],
  );
}

/** Back to pending: the number was not sent. `tried`: the provider was called (a transient error), which counts as an attempt. */
async function release(knex: Knex, numberId: number, tried = false): Promise<void> {
  await knex('campaign_numbers')
    .where({ id: numberId, status: 'sending' })
    .update({ status: 'pending', sendingAt: null, handedAt: null, ...(tried ? {} : { attempts: knex.raw('greatest(attempts - 1, 0)') }) });
}

/** Pauses the campaign itself with a visible reason (only from executing: a cancel saved meanwhile wins). */
async function lineDown(deps: ActivityDeps, campaignId: number, reason: string, processed = 0): Promise<CampaignSendResult> {
  await deps.knex('campaigns').where({ id: campaignId, status: 'executing' }).update({ status: 'paused', pauseReason: reason, updatedAt: deps.knex.fn.now() });
  if (!processed) await publishCampaignProgress(deps, campaignId);
  return { outcome: 'line_down', reason };
}

/** Cloud API: the approved template, its body's {{1}}..{{n}} from the row's columns 2..n+1, the file as its media header. */
function cloudBody(campaign: CampaignRow, row: NumberRow, header: Record<string, unknown> | null = null): Record<string, unknown> {
  if (!campaign.template) {
    const text = fillPlaceholders(deltaToWhatsappText(campaign.message), row.variables);
    return { to: row.normalized, type: 'text', text: { preview_url: false, body: text } };
  }
  const count = placeholderCount(deltaToWhatsappText(campaign.message));
  const parameters = Array.from({ length: count }, (_, i) => ({ type: 'text', text: row.variables[String(i + 1)] || '-' }));
  const components = [...(header ? [{ type: 'header', parameters: [header] }] : []), ...(parameters.length ? [{ type: 'body', parameters }] : [])];
  return {
    to: row.normalized,
    type: 'template',
    template: { name: campaign.template.name, language: { code: campaign.template.language }, ...(components.length ? { components } : {}) },
  };
}
