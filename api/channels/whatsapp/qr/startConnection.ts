import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { TemporalGateway } from '../../../temporal/client';
import { workflowIds } from '../../../../workflows/ids';
import { whatsappRestartSignal, type whatsappConnection, type WhatsappConnectionInput } from '../../../../workflows/channels/whatsappConnection';

type Line = Pick<WhatsappConnectionInput, 'workspaceId' | 'channelId'>;

/** Starts `channel:{id}` for a new QR line; a line whose workflow already runs keeps it (one socket per line). */
export async function startQrConnection(temporal: TemporalGateway, line: Line): Promise<void> {
  const client = await temporal.client();
  await client.workflow.start<typeof whatsappConnection>('whatsappConnection', {
    taskQueue: temporal.taskQueue,
    workflowId: workflowIds.channel(line.channelId),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [{ workspaceId: line.workspaceId, channelId: line.channelId }],
  });
}

/**
 * 'Reiniciar' (signal-with-start): a running connection closes its socket and connects afresh; a line whose
 * workflow has stopped (logged out, replaced, QR not read) gets a new run, which shows a new QR when the
 * session was dropped.
 */
export async function restartQrConnection(temporal: TemporalGateway, line: Line): Promise<void> {
  const client = await temporal.client();
  await client.workflow.signalWithStart<typeof whatsappConnection, []>('whatsappConnection', {
    taskQueue: temporal.taskQueue,
    workflowId: workflowIds.channel(line.channelId),
    args: [{ workspaceId: line.workspaceId, channelId: line.channelId }],
    signal: whatsappRestartSignal,
    signalArgs: [],
  });
}
