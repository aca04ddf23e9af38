import { api } from '../../../providers/httpClient';
import type { Channel } from '../channelsApi';
import { channelsKey } from '../channelKeys';

/** A WhatsApp line as GET/POST/PUT /integrations/whatsapp answer it (docs/channels/whatsapp.md). */
export type WhatsappLine = Channel & {
  provider: 'qr' | 'cloud';
  allowGroups: boolean;
  phoneNumberId?: string;
  businessAccountId?: string;
  webhookUrl?: string;
  /** The webhook every Cloud line of the Meta app shares (docs/channels/whatsapp.md). */
  appWebhookUrl?: string;
  verifyToken?: string;
};

/** What the QR reading modal polls: the pending QR (null once read) and the line's status. */
export interface QrState {
  qrcode: string | null;
  status: string;
}

export const whatsappLineKey = (id: number) => [...channelsKey, 'whatsapp', id] as const;

export const whatsappApi = {
  get: (id: number) => api<WhatsappLine>(`/integrations/whatsapp/${id}`),
  update: (id: number, body: { name: string; allowGroups: boolean; accessToken?: string; appSecret?: string }) => api<WhatsappLine>(`/integrations/whatsapp/${id}`, { method: 'PUT', body }),
  qrcode: (id: number, signal?: AbortSignal) => api<QrState>(`/integrations/whatsapp/qrcode/${id}`, { signal }),
  restart: (id: number) => api<{ id: number; status: string }>('/integrations/restart', { method: 'POST', body: { id } }),
};

/** SPEC §9: the QR is polled every 3 s. */
export const QR_POLL_MS = 3000;
/** SPEC §9: QR size 250 in the modal. */
export const QR_MODAL_SIZE = 250;

export const isWhatsappLine = (c: Pick<Channel, 'channelId'>) => c.channelId === 'whatsapp';
