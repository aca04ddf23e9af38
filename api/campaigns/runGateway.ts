import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { workflowIds } from '../../workflows/ids';
import { campaignCancelSignal, campaignPauseSignal, campaignResumeSignal, type campaignRun, type CampaignRunInput } from '../../workflows/campaigns/campaignRun';

const SIGNALS = { paused: campaignPauseSignal, waiting_processing: campaignResumeSignal, canceled: campaignCancelSignal } as const;

/**
 * Starts `campaign:{id}` after the campaign was committed (USE_EXISTING: a second start keeps the running
 * run). A failure is logged, not thrown: the campaign stays `waiting_file_processing` until the worker's
 * start-up reconcile (activities/campaigns/reconcileCampaigns.ts) or a saved status change (signal-with-start below) starts it.
 */
export async function startCampaignWorkflow(deps: Pick<AppDeps, 'temporal' | 'logger'>, campaignId: number): Promise<void> {
  try {
    await startCampaignRun(deps.temporal, campaignId);
  } catch (err) {
    deps.logger.error({ err, campaignId }, 'campaign workflow did not start');
  }
}

/** The start itself (USE_EXISTING), failing when Temporal does: the worker's start-up reconcile counts and logs. */
export async function startCampaignRun(temporal: AppDeps['temporal'], campaignId: number): Promise<void> {
  const client = await temporal.client();
  await client.workflow.start<typeof campaignRun>('campaignRun', {
    taskQueue: temporal.taskQueue,
    workflowId: workflowIds.campaign(campaignId),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [{ campaignId }],
  });
}

/**
 * Tells the run about a status the api saved, with signal-with-start: a run that is gone (never started,
 * terminated) starts again and reads the saved status from the row. The row is the truth; the signal only
 * wakes the run, so a failure here is logged.
 */
export async function signalCampaignWorkflow(deps: Pick<AppDeps, 'temporal' | 'logger'>, campaignId: number, status: keyof typeof SIGNALS): Promise<void> {
  try {
    const client = await deps.temporal.client();
    await client.workflow.signalWithStart<typeof campaignRun, []>('campaignRun', {
      taskQueue: deps.temporal.taskQueue,
      workflowId: workflowIds.campaign(campaignId),
      args: [{ campaignId } satisfies CampaignRunInput],
      signal: SIGNALS[status],
      signalArgs: [],
    });
  } catch (err) {
    deps.logger.error({ err, campaignId, status }, 'campaign workflow signal failed');
  }
}
