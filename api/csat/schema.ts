import { z } from 'zod';
import { CSAT_COMMENT_MAX, CSAT_EMOJIS } from './scale';

/**
 * CSAT after 'Resolver' (docs/csat.md): the settings of a channel's survey and the widget's answer, shared
 * by the API and the settings form. Browser code imports this file: it may import only zod and ./scale.
 */

export const CSAT_SCALES = ['numbers', 'emojis'] as const;
export type CsatScale = (typeof CSAT_SCALES)[number];

export { CSAT_COMMENT_MAX, CSAT_EMOJIS, CSAT_LABELS } from './scale';

/** How long after the resolve an answer counts: the first answer within these days (docs/csat.md "Answers"). */
export const CSAT_ANSWER_DAYS = 7;
export const CSAT_QUESTION_MAX = 500;
export const CSAT_THANKS_MAX = 300;

export const CSAT_DEFAULTS = {
  question: 'Como você avalia o nosso atendimento?',
  thanks: 'Obrigado pela sua avaliação!',
} as const;

export const CSAT_MESSAGES = {
  question: 'Escreva a pergunta.',
  questionLong: `A pergunta deve ter no máximo ${CSAT_QUESTION_MAX} caracteres.`,
  thanksLong: `O agradecimento deve ter no máximo ${CSAT_THANKS_MAX} caracteres.`,
  scale: 'Escolha números (1 a 5) ou emojis.',
  rating: 'A nota deve ser um número inteiro de 1 a 5.',
  comment: `O comentário deve ter no máximo ${CSAT_COMMENT_MAX} caracteres.`,
  enabled: 'Informe se a pesquisa está ligada.',
} as const;

/** The line the text channels add under the question: how to answer without buttons. */
export function csatInstructions(scale: CsatScale): string {
  if (scale === 'emojis') return `Responda com um número de 1 a 5: ${CSAT_EMOJIS.map((e, i) => `${i + 1} ${e}`).join(', ')}. Se quiser, escreva um comentário depois do número.`;
  return 'Responda com um número de 1 (muito insatisfeito) a 5 (muito satisfeito). Se quiser, escreva um comentário depois do número.';
}

const templateValues = z
  .record(z.string().max(64), z.string({ error: 'Informe o valor da variável.' }).max(1024, 'No máximo 1024 caracteres.'), { error: 'Variáveis inválidas.' })
  .optional()
  .refine((v) => !v || Object.keys(v).length <= 100, 'Variáveis demais.');

/** An approved template of the channel's WhatsApp Cloud line, sent when the 24-hour window has closed. */
export const CsatTemplateSchema = z.object({
  name: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(512),
  language: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(20),
  header: templateValues,
  body: templateValues,
});
export type CsatTemplateReq = z.infer<typeof CsatTemplateSchema>;

/** PUT /csat/channels/{id}: the channel's survey (off by default). Unknown fields are dropped. */
export const CsatSettingsSchema = z.object({
  enabled: z.boolean({ error: CSAT_MESSAGES.enabled }),
  scale: z.enum(CSAT_SCALES, { error: CSAT_MESSAGES.scale }).optional().default('numbers'),
  question: z.string({ error: CSAT_MESSAGES.question }).trim().min(1, CSAT_MESSAGES.question).max(CSAT_QUESTION_MAX, CSAT_MESSAGES.questionLong),
  /** Sent back after a typed answer (and shown by the widget); empty = no thanks. */
  thanks: z.string({ error: 'Texto inválido.' }).trim().max(CSAT_THANKS_MAX, CSAT_MESSAGES.thanksLong).optional().default(CSAT_DEFAULTS.thanks),
  template: CsatTemplateSchema.nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type CsatSettingsReq = z.input<typeof CsatSettingsSchema>;
export type CsatSettingsInput = z.output<typeof CsatSettingsSchema>;

/** POST /v1/widget/csat: the visitor's answer to the question of their last resolved call. */
export const CsatAnswerSchema = z.object({
  rating: z.number({ error: CSAT_MESSAGES.rating }).int(CSAT_MESSAGES.rating).min(1, CSAT_MESSAGES.rating).max(5, CSAT_MESSAGES.rating),
  comment: z
    .string({ error: 'Comentário inválido.' })
    .trim()
    .max(CSAT_COMMENT_MAX, CSAT_MESSAGES.comment)
    .optional()
    .transform((v) => v || null),
  /** The question answered (the widget sends it): a stale box's answer to an older question is refused. */
  messageId: z.number({ error: 'Pergunta inválida.' }).int('Pergunta inválida.').positive('Pergunta inválida.').max(Number.MAX_SAFE_INTEGER, 'Pergunta inválida.').optional(),
});
export type CsatAnswerReq = z.input<typeof CsatAnswerSchema>;

/** GET /report/csat/calls: which rating's calls (all when absent). */
export const CsatDrillSchema = z.object({
  rating: z
    .string()
    .regex(/^[1-5]$/, CSAT_MESSAGES.rating)
    .transform(Number)
    .optional(),
});
