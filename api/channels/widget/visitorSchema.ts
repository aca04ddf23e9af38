import { z } from 'zod';
// Longest visitor message, shared with the widget's text box (api/channels/widget/textLimit.ts).
import { MAX_WIDGET_TEXT } from './textLimit';
import { ContactEmailSchema, PHONE_SEPARATORS } from '../../customers/schema';

/** A widget channel's public id (channels.identifier). Malformed is a 400; well formed but unknown, a 404. */
export const WidgetIdentifierSchema = z
  .string({ error: 'Informe o identificador do widget.' })
  .trim()
  .min(1, 'Informe o identificador do widget.')
  .max(255, 'Identificador do widget inválido.')
  .regex(/^[A-Za-z0-9_-]+$/, 'Identificador do widget inválido.');

/** The visitor session token (newOpaqueToken: 32 random bytes, base64url). */
export const VisitorTokenSchema = z.string({ error: 'Token do visitante inválido.' }).regex(/^[A-Za-z0-9_-]{43}$/, 'Token do visitante inválido.');

export const WidgetConfigQuerySchema = z.object({ identifier: WidgetIdentifierSchema });

/** Visitors send text only: Delta ops with string inserts (attributes are ignored, SPEC §3). */
const TextOpSchema = z.object({ insert: z.string(), attributes: z.record(z.string(), z.unknown()).optional() });

const ContentSchema = z
  .union([z.string(), z.array(TextOpSchema).min(1).max(500)], { error: 'Envie o texto da mensagem.' })
  .transform((content) => (typeof content === 'string' ? content : content.map((op) => op.insert).join('')))
  .refine((text) => text.trim().length > 0, 'A mensagem não pode ficar vazia.')
  .refine((text) => text.length <= MAX_WIDGET_TEXT, `A mensagem deve ter no máximo ${MAX_WIDGET_TEXT} caracteres.`);

/**
 * A solved first-contact challenge (docs/widget.md "Proof of work"): the token of the 429's
 * Balcao-Challenge header and the counter found for it. Checked in api/channels/widget/challenge.ts.
 */
export const ChallengeSolutionSchema = z.object(
  {
    token: z.string({ error: 'Verificação inválida.' }).min(1, 'Verificação inválida.').max(200, 'Verificação inválida.'),
    counter: z.string({ error: 'Verificação inválida.' }).regex(/^[0-9]{1,15}$/, 'Verificação inválida.'),
  },
  { error: 'Verificação inválida.' },
);

/**
 * POST /v1/widget/messages (SPEC §7: sender, content, type 'text', identifier). `clientMessageId`, when
 * given, makes a retried POST idempotent; `token` is the visitor token for clients that cannot set the
 * Authorization header (the header wins); `challenge` answers a first contact's proof-of-work challenge.
 */
export const WidgetMessageSchema = z.object({
  sender: z
    .string({ error: 'Nome do visitante inválido.' })
    .trim()
    .max(120, 'O nome deve ter no máximo 120 caracteres.')
    .nullish()
    .transform((s) => s || undefined),
  // The pre-chat form's e-mail and phone (docs/channels/widget.md "Pre-chat form"), kept on the new contact.
  email: ContactEmailSchema
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : undefined)),
  phone: z
    .string({ error: 'Telefone inválido.' })
    .transform((v) => v.replace(PHONE_SEPARATORS, ''))
    .pipe(z.string().regex(/^(\+?[0-9]{8,20})?$/, 'Telefone inválido: informe DDD e número, ex.: (11) 91234-5678.'))
    .nullish()
    .transform((v) => (v ? v : undefined)),
  content: ContentSchema,
  type: z.literal('text', { error: "O tipo da mensagem deve ser 'text'." }),
  identifier: WidgetIdentifierSchema,
  clientMessageId: z
    .string({ error: 'Identificador da mensagem inválido.' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'Identificador da mensagem inválido.')
    .optional(),
  token: VisitorTokenSchema.optional(),
  challenge: ChallengeSolutionSchema.optional(),
});
export type WidgetMessageReq = z.infer<typeof WidgetMessageSchema>;

const positiveId = (name: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, `${name} inválido.`)
    .transform(Number)
    .optional();

/** GET /v1/widget/messages: the newest `limit`, or those `before`/`after` a message id (refetch after a reconnect). */
export const WidgetMessagesQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, 'Limite inválido.')
    .transform(Number)
    .pipe(z.number().int().min(1, 'Limite inválido.').max(100, 'O limite máximo é 100.'))
    .optional(),
  before: positiveId('Cursor'),
  after: positiveId('Cursor'),
});
export type WidgetMessagesQuery = z.infer<typeof WidgetMessagesQuerySchema>;
