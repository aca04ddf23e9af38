import type { WebhookSettingsReq } from '../../../../api/webhooks/schema';
import { api } from '../../providers/httpClient';

export type WebhookEventName = 'message:received' | 'session:status:changed' | 'person:changed';

/** GET/PUT /webhook (docs/webhooks.md). */
export interface WebhookSettingsView {
  id?: number;
  webhook: string;
  email: string;
  subscriptions: Record<WebhookEventName, boolean>;
  secret: string | null;
  disabledAt: string | null;
}

export interface WebhookDeliveryView {
  id: number;
  event: WebhookEventName;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export const webhookApi = {
  get: () => api<WebhookSettingsView>('/webhook'),
  save: (body: WebhookSettingsReq) => api<WebhookSettingsView>('/webhook', { method: 'PUT', body }),
  regenerateSecret: () => api<WebhookSettingsView>('/webhook/secret', { method: 'POST' }),
  deliveries: () => api<WebhookDeliveryView[]>('/webhook/deliveries'),
  replay: (id: number) => api<WebhookDeliveryView>(`/webhook/deliveries/${id}/replay`, { method: 'POST' }),
};
