import { z } from 'zod';

/** Body of PUT /webhook (SPEC §3, §7), shared with the UI form: imports only zod. */

export const WEBHOOK_EVENT_NAMES = ['message:received', 'session:status:changed', 'person:changed', 'csat:received'] as const;

/** SPEC §5: the URL is stored with https:// added when the user left the scheme out. */
export function withHttps(url: string): string {
  const trimmed = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export const WebhookSettingsSchema = z.strictObject({
  webhook: z
    .string({ error: 'Informe a URL do webhook.' })
    .trim()
    .min(1, 'Informe a URL do webhook.')
    .max(2000, 'URL muito longa.')
    .transform(withHttps)
    .refine((v) => URL.canParse(v), 'URL inválida'),
  email: z.union([z.literal(''), z.null(), z.email('E-mail inválido.').max(254, 'E-mail inválido.')]).optional(),
  subscriptions: z
    .strictObject({
      'message:received': z.boolean().optional(),
      'session:status:changed': z.boolean().optional(),
      'person:changed': z.boolean().optional(),
      'csat:received': z.boolean().optional(),
    })
    .default({}),
});
export type WebhookSettingsReq = z.input<typeof WebhookSettingsSchema>;
export type WebhookSettings = z.output<typeof WebhookSettingsSchema>;
