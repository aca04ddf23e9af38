import { setChannelStatus } from '../../api/channels/channelStatus';
import { QrStatus } from './whatsapp/eventHandler';
import type { ActivityDeps } from '../deps';

/** What the connection workflow itself reports; qr and connected come from the socket's own events. */
export type WhatsappConnectionPhase = 'connecting' | 'restarting' | 'disconnected';

const STATUS: Record<WhatsappConnectionPhase, string> = {
  connecting: QrStatus.connecting,
  // SPEC §4 'Reiniciando...'.
  restarting: 'restarting_channel',
  disconnected: QrStatus.disconnected,
};

/**
 * Moves the line's status and, when it changed, publishes `channel.status` on `ws/{id}/all` (the
 * disconnected banner listens there). Idempotent: a retried report changes and publishes nothing twice.
 */
export function reportWhatsappConnection(deps: ActivityDeps) {
  return async function reportWhatsappConnection(input: { workspaceId: number; channelId: number; phase: WhatsappConnectionPhase }): Promise<boolean> {
    return setChannelStatus(deps, { id: input.channelId, workspaceId: input.workspaceId }, STATUS[input.phase]);
  };
}
