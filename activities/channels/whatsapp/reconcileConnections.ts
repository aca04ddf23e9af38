import { workflowIds } from '../../../workflows/ids';
import { startQrConnection } from '../../../api/channels/whatsapp/qr/startConnection';
import { startNotRunning, type ReconcileDeps } from '../../temporal/startNotRunning';

/**
 * Start-up reconcile of QR lines (docs/channels/whatsapp.md "Connection workflow"): every QR line whose
 * `channel:{id}` workflow is not running gets one (USE_EXISTING, so a workflow started meanwhile is kept),
 * except lines that stopped for good (`disconnected`: logged out, replaced, blocked, QR not read), which wait
 * for 'Reiniciar'. Covers a Temporal store that was lost or wiped and a start that failed when the line was
 * added. Answers how many were started.
 */
export async function reconcileQrConnections(deps: ReconcileDeps, options: { channelIds?: number[] } = {}): Promise<number> {
  const { temporal } = deps;
  if (!temporal) return 0;
  let query = deps.knex('channels');
  // A subset of lines (a test's own, in a database other tests share).
  if (options.channelIds) query = query.whereIn('id', options.channelIds);
  const lines: { id: number; workspaceId: number }[] = await query
    .where({ type: 'whatsapp' })
    .whereRaw("coalesce(config->>'provider', 'qr') = 'qr'")
    .whereNot('status', 'disconnected')
    .orderBy('id')
    .select('id', 'workspace_id');
  return startNotRunning(temporal, lines, {
    id: (line) => workflowIds.channel(line.id),
    start: (line) => startQrConnection(temporal, { workspaceId: line.workspaceId, channelId: line.id }),
    failed: (err, line) => deps.logger.warn({ err, channelId: line.id }, 'WhatsApp QR connection not started'),
  });
}
