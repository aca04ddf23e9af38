import type { WebhookSettingsReq } from '../../../../api/webhooks/schema';
import { api, HttpError } from '../../providers/httpClient';
import { texts } from '../../i18n/ptBR';
import type { ResourceSource } from '../common';

export type WebhookEventName = 'message:received' | 'session:status:changed' | 'person:changed' | 'csat:received';

/** GET/PUT /webhook (docs/webhooks.md) once saved: it has an id. */
export interface WebhookRow {
  id: number;
  webhook: string;
  email: string;
  subscriptions: Record<WebhookEventName, boolean>;
  secret: string;
  disabledAt: string | null;
}

export interface WebhookDeliveryView {
  id: number;
  /** The webhook-id header the receiver saw. */
  webhookId: string;
  event: WebhookEventName;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const current = async (): Promise<WebhookRow | undefined> => {
  const w = await api<Omit<WebhookRow, 'id'> & { id?: number }>('/webhook');
  return w.id ? (w as WebhookRow) : undefined;
};

/**
 * The workspace's one webhook as a settings resource: its list has that record or none, 'new' and saving
 * both PUT /webhook, and there is no delete (unticking every event stops the deliveries).
 */
export const webhookSource: ResourceSource<WebhookRow> = {
  page: async () => {
    const w = await current();
    return w ? { rows: [w], total: 1 } : { rows: [], total: 0 };
  },
  get: async (id) => {
    const w = await current();
    if (w?.id !== id) throw new HttpError(404, [texts.common.notFound]);
    return w;
  },
  create: (body) => api<WebhookRow>('/webhook', { method: 'PUT', body: body as WebhookSettingsReq }),
  update: (_id, body) => api<WebhookRow>('/webhook', { method: 'PUT', body: body as WebhookSettingsReq }),
};

export const webhookApi = {
  regenerateSecret: () => api<WebhookRow>('/webhook/secret', { method: 'POST' }),
  deliveries: () => api<WebhookDeliveryView[]>('/webhook/deliveries'),
  replay: (id: number) => api<WebhookDeliveryView>(`/webhook/deliveries/${id}/replay`, { method: 'POST' }),
};
