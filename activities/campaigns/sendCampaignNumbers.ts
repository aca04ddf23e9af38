import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { ChannelDeps, ChannelRecord } from '../../api/channels/adapter';
import { ChannelSendError } from '../../api/channels/sendErrors';
import { setChannelStatus } from '../../api/channels/channelStatus';
import { cloudLineOf } from '../../api/channels/whatsapp/cloudLine';
import { sendGraphMessage } from '../../api/channels/whatsapp/client';
import { sendWhatsapp, whatsappRouteFor } from '../../api/channels/whatsapp/sendWhatsapp';
import type { QrLiveSockets } from '../../api/channels/whatsapp/qr/liveSockets';
import { deltaToWhatsappText } from '../../api/channels/whatsapp/mapping';
import { publishCampaignProgress } from '../../api/campaigns/realtime';
import { campaignIdempotencyKey, campaignIdempotencyPrefix, fillPlaceholders, placeholderCount } from '../../api/campaigns/message';
import type { CampaignTemplate } from '../../api/models/Campaign';
import type { ActivityDeps } from '../deps';
import type { StoredFileRef } from '../../api/conversations/content';
import { campaignQrContent, cloudHeaderParameter } from './campaignMedia';

export interface CampaignSendOptions {
  /** Sends per second on a Cloud API line (Meta's default throughput is 80 messages/s). */
  cloudRatePerSecond: number;
  /** Sends per second on a QR (WhatsApp Web) line: far lower, a phone is not a bulk sender. */
  qrRatePerSecond: number;
  /** Transient failures of one number before it is failed. */
  maxAttempts: number;
  /** Backoff after a transient failure (doubled per attempt, capped). */
  initialRetryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_CAMPAIGN_SEND_OPTIONS: CampaignSendOptions = { cloudRatePerSecond: 80, qrRatePerSecond: 1, maxAttempts: 5, initialRetryMs: 5_000, maxRetryMs: 5 * 60_000 };

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
  normalized: string;
  variables: Record<string, string>;
  status: string;
  externalId: string | null;
  attempts: number;
}

/**
 * Sends up to `max` pending numbers of an executing campaign, one after another at the line's rate
 * (the workflow asks for one at a time when there is a wait between messages). Exactly once per number:
 * the row is committed `sending` with its idempotency key `campaign:{id}:{numberId}` before the provider is
 * called, and `sent` with the provider's id right after. A row found `sending` again (a worker killed during
 * the call) is never called again — it is failed with INTERRUPTED_REASON, since WhatsApp has no idempotency
 * key to ask whether it arrived. The campaign's status is read before every number, so a pause or a cancel
 * saved by the api stops the burst at the next number.
 */
export const sendCampaignNumbers =
  (deps: ActivityDeps, options: Partial<CampaignSendOptions> = {}, qrSockets?: QrLiveSockets) =>
  async ({ campaignId, max, routed }: CampaignSendInput): Promise<CampaignSendResult> => {
    const o = { ...DEFAULT_CAMPAIGN_SEND_OPTIONS, ...options };
    if (!deps.config) throw new Error('sendCampaignNumbers needs the process config');
    const channelDeps: ChannelDeps = { knex: deps.knex, logger: deps.logger, publisher: deps.publisher, config: deps.config, qrSockets };
    let processed = 0;
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
      // Sends start on a fixed schedule (timer lateness does not add up), 1% under the rate so jitter never
      // puts rate + 1 sends inside one second.
      const gapMs = (1000 / (cloud ? o.cloudRatePerSecond : o.qrRatePerSecond)) * 1.01;
      let nextSendAt = 0;
      processed += await settleLeftovers(deps.knex, campaignId);

      for (let n = 0; n < max; n++) {
        heartbeat();
        const claimed = await claimNext(deps.knex, campaignId);
        if (claimed.kind === 'stopped') return processed ? { outcome: 'progress', processed, remaining: true } : { outcome: 'stopped', status: claimed.status };
        if (claimed.kind === 'none') return { outcome: 'progress', processed, remaining: false };
        const row = claimed.row;
        // This send's slot: the schedule's next one, or now when the schedule fell behind (no catching up).
        const slot = Math.max(nextSendAt, Date.now());
        if (slot > Date.now()) await new Promise((r) => setTimeout(r, slot - Date.now()));
        nextSendAt = slot + gapMs;
        const idempotencyKey = campaignIdempotencyKey(campaignId, row.id);
        try {
          let externalId: string | undefined;
          if (cloud) {
            externalId = await sendGraphMessage(deps.config, cloud, cloudBody(campaign, row, await cloudHeaderParameter(channelDeps, cloud, campaign.mediaFile)));
          } else {
            const text = fillPlaceholders(deltaToWhatsappText(campaign.message), row.variables);
            // Through this process's live socket (the burst was routed here); the key fixes the WhatsApp id.
            const sent = await sendWhatsapp(channelDeps, record, `${row.normalized}@s.whatsapp.net`, campaignQrContent(text, campaign.mediaFile), idempotencyKey);
            externalId = sent.externalId;
          }
          await settle(deps.knex, row.id, { status: 'sent', externalId: externalId ?? null, error: null });
          processed++;
        } catch (err) {
          const e = err instanceof ChannelSendError ? err : new ChannelSendError('Falha inesperada ao enviar a mensagem.', { transient: true });
          if (!(err instanceof ChannelSendError)) deps.logger.error({ err, campaignId, numberId: row.id }, 'campaign send threw an unexpected error');
          // No send happened: the number goes back to pending.
          // A QR line without a live socket here (not linked, reconnecting, logged out) did not send either.
          const qrDown = !cloud && (e.code === 'qr_not_connected' || e.code === 'qr_disconnected' || /não está conectada|está desconectada/.test(e.message));
          const notSentDisconnect = e.disconnect || qrDown;
          if (notSentDisconnect) {
            await release(deps.knex, row.id);
            if (e.disconnect) await setChannelStatus(deps, record, 'disconnected');
            return lineDown(deps, campaignId, e.disconnect ? `${LINE_DISCONNECTED} (${e.message})` : LINE_DISCONNECTED, processed);
          }
          if (e.transient && row.attempts < o.maxAttempts) {
            await release(deps.knex, row.id);
            const delayMs = Math.max(Math.min(o.maxRetryMs, o.initialRetryMs * 2 ** (row.attempts - 1)), Math.min(e.retryAfterMs ?? 0, o.maxRetryMs));
            return { outcome: 'retry', delayMs, processed };
          }
          await settle(deps.knex, row.id, { status: 'failed', externalId: null, error: e.message });
          processed++;
        }
      }
      const remaining = await deps.knex('campaign_numbers').where({ campaignId }).whereIn('status', ['pending', 'sending']).first('id');
      return { outcome: 'progress', processed, remaining: Boolean(remaining) };
    } finally {
      if (processed) await publishCampaignProgress(deps, campaignId);
    }
  };

/** Tells Temporal this attempt is alive (a killed worker is noticed by the heartbeat timeout); a no-op outside an activity. */
function heartbeat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // Called directly (tests, bench): no activity context.
  }
}

type Claim = { kind: 'row'; row: NumberRow } | { kind: 'none' } | { kind: 'stopped'; status: string };

/**
 * Numbers a dead attempt left `sending` (killed between claim and settle): never sent again — settled
 * `sent` when the provider's id was recorded, else failed as interrupted. Answers how many.
 */
async function settleLeftovers(knex: Knex, campaignId: number): Promise<number> {
  const rows: { id: number; externalId: string | null }[] = await knex('campaign_numbers').where({ campaignId, status: 'sending' }).select('id', 'external_id');
  for (const r of rows) {
    await settle(knex, r.id, r.externalId ? { status: 'sent', externalId: r.externalId, error: null } : { status: 'failed', externalId: null, error: INTERRUPTED_REASON });
  }
  return rows.length;
}

/**
 * The next pending number of an executing campaign, committed `sending` with its idempotency key in one
 * statement (the campaign's status is read by the same statement, so a pause saved before stops here).
 */
async function claimNext(knex: Knex, campaignId: number): Promise<Claim> {
  const { rows } = (await knex.raw(
    `UPDATE campaign_numbers SET status = 'sending', idempotency_key = ? || id, sending_at = now(), attempts = attempts + 1
     WHERE id = (SELECT n.id FROM campaign_numbers n
                 WHERE n.campaign_id = ? AND n.status = 'pending'
                   AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = ? AND c.status = 'executing')
                 ORDER BY n.id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, normalized, variables, status, external_id, attempts`,
    [campaignIdempotencyPrefix(campaignId), campaignId, campaignId],
  )) as { rows: { id: number; normalized: string; variables: Record<string, string>; status: string; external_id: string | null; attempts: number }[] };
  const r = rows[0];
  if (r) return { kind: 'row', row: { id: r.id, normalized: r.normalized, variables: r.variables, status: r.status, externalId: r.external_id, attempts: r.attempts } };
  const c = await knex('campaigns').where({ id: campaignId }).first('status');
  return !c || c.status !== 'executing' ? { kind: 'stopped', status: c?.status ?? 'missing' } : { kind: 'none' };
}

async function release(knex: Knex, numberId: number): Promise<void> {
  await knex('campaign_numbers').where({ id: numberId, status: 'sending' }).update({ status: 'pending', sendingAt: null });
}

type Outcome = { status: 'sent' | 'failed'; externalId: string | null; error: string | null };

/** The number's outcome and the campaign's counters in one statement, so the totals always match the rows. */
async function settle(knex: Knex, numberId: number, outcome: Outcome): Promise<void> {
  await knex.raw(
    `WITH n AS (
       UPDATE campaign_numbers SET status = ?, external_id = ?, error = ?, sent_at = CASE WHEN ? = 'sent' THEN now() ELSE NULL END
       WHERE id = ? AND status = 'sending' RETURNING campaign_id)
     UPDATE campaigns SET total_numbers_executed = total_numbers_executed + 1, total_numbers_failed = total_numbers_failed + ?, updated_at = now()
     FROM n WHERE campaigns.id = n.campaign_id`,
    [outcome.status, outcome.externalId, outcome.error, outcome.status, numberId, outcome.status === 'failed' ? 1 : 0],
  );
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
