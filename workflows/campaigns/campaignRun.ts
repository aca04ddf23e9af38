import { ActivityFailure, condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { burstSize, messageGapMs, type Pacing } from './pacing';

export interface CampaignRunInput {
  campaignId: number;
  /** Carried over continueAsNew: how many numbers of the current batch were already sent. */
  sentInChunk?: number;
  /** Carried over continueAsNew: the file was processed and the start date reached. */
  started?: boolean;
}

/** The api saved `paused`: stop at the next number (a wait in progress ends). */
export const campaignPauseSignal = defineSignal('campaignPause');
/** The api saved `waiting_processing` after a pause: go on (SPEC §4 paused → waiting_processing → executing). */
export const campaignResumeSignal = defineSignal('campaignResume');
/** The api saved `canceled`: end now, whatever the state. */
export const campaignCancelSignal = defineSignal('campaignCancel');

export interface CampaignRunState {
  phase: 'file' | 'scheduled' | 'sending' | 'waiting' | 'paused' | 'done';
  sentInChunk: number;
  /** Waits taken since this run began, in ms: [kind, ms] — what the pacing tests measure. */
  waits: ['message' | 'chunk' | 'retry', number][];
}
export const campaignRunStateQuery = defineQuery<CampaignRunState>('campaignRunState');

/**
 * Numbers one activity may send back to back when no wait is set between messages: ~6 s at a Cloud line's
 * 80/s, so the activity round trip between two bursts costs little of the line's rate (the activity itself
 * stops claiming after a minute on a slow line, and publishes progress every second).
 */
export const MAX_BURST = 500;
/** Sends per run before continueAsNew: ~11 events each keeps a run near 3.5k events (limit 10k). */
export const STEPS_PER_RUN = 300;

const FINAL = new Set(['finished_success', 'finished_fail', 'canceled', 'missing']);

const { processCampaignFile, loadCampaignPlan, startCampaignRun, finishCampaign } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const SEND = {
  // A burst is at most MAX_BURST sends at the line's rate; it heartbeats per number, so a worker killed
  // mid-burst is noticed within the heartbeat timeout and the burst resumes on another worker.
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const { sendCampaignNumbers } = proxyActivities<Activities>(SEND);

/** Routes followed in a row before sending from the main queue anyway (two workers naming each other). */
const MAX_ROUTE_HOPS = 3;

type SendResult = Awaited<ReturnType<typeof sendCampaignNumbers>>;

/**
 * A burst on the queue only the worker holding a QR line's socket polls (docs/campaigns.md "QR lines"). That
 * worker gone (nobody picks the task up within 30 s) or failing → `null`: the caller sends from the main
 * queue with `routed`, where the socket is not, so the campaign pauses as disconnected (never a double send:
 * a number the lost attempt left `sending` is failed as interrupted, as after any crash).
 */
async function sendOnSocketWorker(taskQueue: string, args: { campaignId: number; max: number }): Promise<SendResult | null> {
  const routed = proxyActivities<Activities>({ ...SEND, taskQueue, scheduleToStartTimeout: '30 seconds', retry: { ...SEND.retry, maximumAttempts: 3 } });
  try {
    return await routed.sendCampaignNumbers(args);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    return null;
  }
}

/**
 * One per campaign (`campaign:{id}`, docs/campaigns.md): process the file, wait (a durable timer) until the
 * execution date, then send batch by batch — a random wait in [min, max] between messages (the workflow's
 * deterministic random), `timeBetweenChunks` between batches. The campaign row is the state: the api writes
 * paused / waiting_processing / canceled and signals; the send activity reads the status before every
 * number, so a lost signal only delays, never lets a paused campaign send.
 */
export async function campaignRun(input: CampaignRunInput): Promise<string> {
  const { campaignId } = input;
  let pauses = 0;
  let resumes = 0;
  let cancels = 0;
  const state: CampaignRunState = { phase: input.started ? 'sending' : 'file', sentInChunk: input.sentInChunk ?? 0, waits: [] };
  setHandler(campaignPauseSignal, () => void pauses++);
  setHandler(campaignResumeSignal, () => void resumes++);
  setHandler(campaignCancelSignal, () => void cancels++);
  setHandler(campaignRunStateQuery, () => state);

  /** Sleeps `ms`, cut short by a pause or a cancel (a resume does not shorten a wait). */
  const nap = async (kind: CampaignRunState['waits'][number][0], ms: number) => {
    if (ms <= 0) return;
    const [p, c] = [pauses, cancels];
    state.phase = 'waiting';
    state.waits.push([kind, ms]);
    await condition(() => pauses > p || cancels > c, ms);
    state.phase = 'sending';
  };

  if (!input.started) {
    const file = await processCampaignFile({ campaignId });
    if (FINAL.has(file.status)) return done(file.status);
  }
  const plan: (Pacing & { executionAt: number | null; status: string }) | null = await loadCampaignPlan({ campaignId });
  if (!plan || FINAL.has(plan.status)) return done(plan?.status ?? 'missing');
  if (!input.started && plan.executionAt !== null && plan.executionAt > Date.now()) {
    state.phase = 'scheduled';
    const c = cancels;
    await condition(() => cancels > c, plan.executionAt - Date.now());
  }

  let executing = false;
  /** The socket worker's queue on a QR line (asked of the activity, never looked up here); null: the main queue. */
  let route: string | null = null;
  let hops = 0;
  for (let steps = 0; ; steps++) {
    if (!executing) {
      const [r, c] = [resumes, cancels];
      const status = await startCampaignRun({ campaignId });
      if (FINAL.has(status)) return done(status);
      if (status !== 'executing') {
        state.phase = 'paused';
        await condition(() => resumes > r || cancels > c);
        continue;
      }
      executing = true;
      state.phase = 'sending';
    }
    if (steps >= STEPS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof campaignRun>({ campaignId, sentInChunk: state.sentInChunk, started: true });
    }
    const args = { campaignId, max: burstSize(plan, state.sentInChunk, MAX_BURST) };
    let result: SendResult | null = route ? await sendOnSocketWorker(route, args) : await sendCampaignNumbers({ ...args, routed: hops >= MAX_ROUTE_HOPS });
    if (result === null) {
      route = null;
      result = await sendCampaignNumbers({ ...args, routed: true });
    }
    if (result.outcome === 'route') {
      // Nothing was claimed: the same burst again, on the worker holding the socket.
      route = ++hops >= MAX_ROUTE_HOPS ? null : result.taskQueue;
      continue;
    }
    hops = 0;
    if (result.outcome === 'stopped' || result.outcome === 'line_down') {
      // A resume asks for the route afresh (the line may reconnect on another worker).
      route = null;
      if (result.outcome === 'stopped' && FINAL.has(result.status)) return done(result.status);
      // Paused (by the api or by a disconnected line): back to the top, which waits for a resume.
      executing = false;
      continue;
    }
    state.sentInChunk += result.processed;
    if (result.outcome === 'retry') {
      await nap('retry', result.delayMs);
      continue;
    }
    if (!result.remaining) return done(await finishCampaign({ campaignId }));
    if (state.sentInChunk >= plan.chunks) {
      state.sentInChunk = 0;
      await nap('chunk', plan.timeBetweenChunks * 1000);
    } else if (result.processed > 0) {
      await nap('message', messageGapMs(plan, Math.random()));
    }
  }

  function done(status: string): string {
    state.phase = 'done';
    return status;
  }
}
