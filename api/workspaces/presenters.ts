import type { WorkspaceRow } from '../auth/queries';

/** GET/PUT /workspace: the current workspace's settings. */
export function presentWorkspace(ws: WorkspaceRow) {
  return { id: ws.id, name: ws.name, avatar: ws.avatar, timeZone: ws.timeZone, customerIdentifier: ws.customerIdentifier, assignOnManualReply: ws.assignOnManualReply, awayAfterMinutes: ws.awayAfterMinutes };
}
