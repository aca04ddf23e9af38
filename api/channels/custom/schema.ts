import { z } from 'zod';

const required = (message: string, max = 255) => z.string({ error: message }).trim().min(1, message).max(max, `No máximo ${max} caracteres.`);

export const ENDPOINT_INVALID = 'Informe uma URL completa, começando com https://';

/**
 * POST /integrations/custom (issue 13; docs/channels/custom.md): a description and the company's outbound
 * endpoint (`hashIdentifier`, SPEC §3). Shared with the settings screen: only the URL's shape is checked
 * here; https and a public address are the SSRF guard's rules (api/http/guardedFetch.ts), run by the api
 * before saving (and again on every delivery), so its one test-only loopback option applies.
 */
export const CustomChannelSchema = z.object({
  description: required('A descrição é obrigatória.', 120),
  hashIdentifier: z
    .string({ error: 'Informe o endpoint de saída.' })
    .trim()
    .min(1, 'Informe o endpoint de saída.')
    .max(2048, 'No máximo 2048 caracteres.')
    .regex(/^https?:\/\/[^\s/?#]+\S*$/i, ENDPOINT_INVALID),
});
export type CustomChannelReq = z.infer<typeof CustomChannelSchema>;

/** One Delta op of an inbound message: text inserts only (files cannot be named by the sender). */
const DeltaOp = z.object({
  insert: z.string({ error: 'insert deve ser um texto.' }).max(4096, 'No máximo 4096 caracteres por trecho.'),
  attributes: z.record(z.string(), z.unknown()).optional(),
});

const optionalText = (max: number) => z.string().trim().max(max, `No máximo ${max} caracteres.`).optional().nullable();

/**
 * The body of POST /api/hooks/custom/{identifier}: the company's message id (idempotency), the customer
 * (`sender.id` is their identity in this channel), the content as Delta ops or plain text, and the id of
 * the message it answers.
 */
export const CustomInboundSchema = z.object({
  id: z.string({ error: 'Informe o id da mensagem.' }).trim().min(1, 'Informe o id da mensagem.').max(255, 'No máximo 255 caracteres.'),
  sender: z.object(
    {
      id: z.string({ error: 'Informe o id do remetente.' }).trim().min(1, 'Informe o id do remetente.').max(255, 'No máximo 255 caracteres.'),
      name: optionalText(255),
      phone: optionalText(32),
      email: z.email('E-mail inválido.').max(254, 'E-mail inválido.').optional().nullable(),
      avatar: z.string().trim().max(500, 'No máximo 500 caracteres.').regex(/^https?:\/\/\S+$/i, 'URL inválida.').optional().nullable(),
    },
    { error: 'Informe o remetente.' },
  ),
  content: z.union(
    [
      z.string().trim().min(1, 'A mensagem está vazia.').max(20_000, 'No máximo 20000 caracteres.'),
      z.array(DeltaOp).min(1, 'A mensagem está vazia.').max(500, 'No máximo 500 trechos.'),
    ],
    { error: 'content deve ser um texto ou uma lista de operações Delta.' },
  ),
  replyTo: z.string().trim().max(255).optional().nullable(),
});
export type CustomInbound = z.infer<typeof CustomInboundSchema>;

/** What a custom channel keeps in channels.config: the endpoint and its signing secret, sealed. */
export interface CustomChannelConfig {
  endpoint: string;
  secretSealed: string;
}

export function isCustomConfig(c: unknown): c is CustomChannelConfig {
  const v = c as Partial<CustomChannelConfig> | null;
  return !!v && typeof v.endpoint === 'string' && typeof v.secretSealed === 'string';
}
