import { z } from 'zod';

/** base64url without padding (RFC 4648 §5), what PushSubscription.toJSON() answers for its keys. */
const base64url = (bytes: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, message)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, message);

/**
 * A browser's push subscription (PushSubscription.toJSON(): endpoint and keys), sent by the profile's
 * "Notificações neste aparelho" switch. p256dh is the uncompressed P-256 point (65 bytes), auth the
 * 16-byte secret of RFC 8291.
 */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: 'Informe o endereço de push do navegador.' })
    .trim()
    .max(2048, 'Endereço de push longo demais.')
    .refine((v) => URL.canParse(v), 'Endereço de push inválido.'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: base64url(65, 'Chave p256dh inválida.'),
      auth: base64url(16, 'Chave auth inválida.'),
    },
    { error: 'Informe as chaves da inscrição.' },
  ),
});

export type PushSubscriptionReq = z.output<typeof PushSubscriptionSchema>;
