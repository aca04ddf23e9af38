import { z } from 'zod';

const description = z
  .string({ error: 'A descrição é obrigatória.' })
  .trim()
  .min(1, 'A descrição é obrigatória.')
  .max(120, 'A descrição deve ter no máximo 120 caracteres.');

/** POST /integrations/mail: only a description; the forwarding address is generated (SPEC §3 E-mail). */
export const EmailChannelSchema = z.object({ description });
export type EmailChannelReq = z.infer<typeof EmailChannelSchema>;

/** smtp:// or smtps:// with a host, optionally user:password@ and a port (docs/channels/email.md). */
export const SMTP_URL = /^smtps?:\/\/(?:[^@/\s]+@)?[^@/:\s]+(?::\d{1,5})?\/?$/i;

/**
 * PUT /integrations/mail/{id}: the description and the optional outbound settings. Empty `fromName` /
 * `fromAddress` fall back to the description and the forwarding address. `smtp` 'product' sends through
 * the product's SMTP_URL; 'company' through the company's own server, whose URL (with its password) is
 * write-only: sent once, kept sealed, never answered; left out (or empty) it keeps the saved one.
 */
export const EmailChannelUpdateSchema = z
  .object({
    description,
    fromName: z.string().trim().max(120, 'O nome do remetente deve ter no máximo 120 caracteres.').optional().default(''),
    fromAddress: z
      .string()
      .trim()
      .max(254, 'E-mail inválido.')
      .optional()
      .default('')
      .refine((v) => v === '' || z.email().safeParse(v).success, 'E-mail inválido.'),
    smtp: z.enum(['product', 'company'], { error: 'Escolha por onde as respostas saem.' }).optional().default('product'),
    smtpUrl: z
      .string()
      .trim()
      .max(500, 'A URL do servidor SMTP deve ter no máximo 500 caracteres.')
      .optional()
      .default('')
      .refine((v) => v === '' || SMTP_URL.test(v), 'Use o formato smtp://usuario:senha@servidor:587 (ou smtps:// para TLS direto).'),
  });
export type EmailChannelUpdateReq = z.infer<typeof EmailChannelUpdateSchema>;
