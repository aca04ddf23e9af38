import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../conversations/limits';
import { DATE_PATTERN, isDate, LOCAL_PATTERN, parseLocal, REPEATS } from './recurrence';

/**
 * Requests of the scheduled messages (docs/scheduled-messages.md), shared by the API and the composer's
 * 'Agendar' form. Browser code imports this file: it may import only zod, ./recurrence and
 * ../conversations/limits. Unknown fields are dropped, never written.
 */

export { MAX_MESSAGE_CHARS };
export const SCHEDULES_PAGE_SIZE = 20;
/** How far ahead the first send may be. */
export const MAX_SCHEDULE_DAYS = 366;

export const SCHEDULE_STATES = ['scheduled', 'sent', 'failed', 'canceled'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

export const SCHEDULE_MESSAGES = {
  empty: 'Escreva a mensagem ou anexe um arquivo.',
  sendAt: 'Informe data e hora válidas.',
  past: 'Escolha uma data e hora no futuro.',
  tooFar: `Agende para no máximo ${MAX_SCHEDULE_DAYS} dias à frente.`,
  until: 'Informe uma data válida.',
  untilBefore: 'A repetição deve terminar no dia do primeiro envio ou depois.',
  templateWithFile: 'Um modelo do WhatsApp não leva arquivo anexo.',
  tooLong: `A mensagem deve ter no máximo ${MAX_MESSAGE_CHARS} caracteres.`,
} as const;

const templateValues = z
  .record(z.string().max(64), z.string({ error: 'Informe o valor da variável.' }).max(1024, 'No máximo 1024 caracteres.'), { error: 'Variáveis inválidas.' })
  .optional()
  .refine((v) => !v || Object.keys(v).length <= 100, 'Variáveis demais.');

/** An approved template of the conversation's WhatsApp Cloud line; its values may use the schedule's variables. */
export const ScheduleTemplateSchema = z.object({
  name: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(512),
  language: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(20),
  header: templateValues,
  body: templateValues,
});
export type ScheduleTemplateReq = z.infer<typeof ScheduleTemplateSchema>;

/** What the form edits: when, how often, and what. `sendAt` is a wall-clock time in the workspace's time zone. */
const fields = {
  sendAt: z
    .string({ error: SCHEDULE_MESSAGES.sendAt })
    .regex(LOCAL_PATTERN, SCHEDULE_MESSAGES.sendAt)
    .refine((s) => parseLocal(s) !== undefined, SCHEDULE_MESSAGES.sendAt),
  repeat: z.enum(REPEATS, { error: 'Repetição inválida.' }).optional().default('none'),
  repeatUntil: z
    .string()
    .regex(DATE_PATTERN, SCHEDULE_MESSAGES.until)
    .refine(isDate, SCHEDULE_MESSAGES.until)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  text: z.string({ error: 'Texto inválido.' }).max(MAX_MESSAGE_CHARS, SCHEDULE_MESSAGES.tooLong).optional().default(''),
  file: z
    .object({ key: z.string({ error: 'Arquivo inválido.' }).min(1, 'Arquivo inválido.').max(255, 'Arquivo inválido.') }, { error: 'Arquivo inválido.' })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  template: ScheduleTemplateSchema.nullable()
    .optional()
    .transform((v) => v ?? null),
};

type Fields = { sendAt: string; repeat: string; repeatUntil: string | null; text: string; file: { key: string } | null; template: ScheduleTemplateReq | null };

function checkFields(v: Fields, ctx: z.RefinementCtx): void {
  if (!v.text.trim() && !v.file && !v.template) ctx.addIssue({ code: 'custom', path: ['text'], message: SCHEDULE_MESSAGES.empty });
  if (v.template && v.file) ctx.addIssue({ code: 'custom', path: ['file'], message: SCHEDULE_MESSAGES.templateWithFile });
  if (v.repeat !== 'none' && v.repeatUntil && v.repeatUntil < v.sendAt.slice(0, 10)) ctx.addIssue({ code: 'custom', path: ['repeatUntil'], message: SCHEDULE_MESSAGES.untilBefore });
}

/** A one-off schedule keeps no end date. */
const normalize = <T extends Fields>(v: T): T => ({ ...v, repeatUntil: v.repeat === 'none' ? null : v.repeatUntil });

/** POST /schedules */
export const ScheduleCreateSchema = z
  .object({ conversationId: z.number({ error: 'Informe a conversa.' }).int('Informe a conversa.').positive('Informe a conversa.').max(Number.MAX_SAFE_INTEGER, 'Informe a conversa.'), ...fields })
  .superRefine(checkFields)
  .transform(normalize);
export type ScheduleCreateReq = z.infer<typeof ScheduleCreateSchema>;

/** PUT /schedules/{id}: the same fields; the conversation stays. */
export const ScheduleUpdateSchema = z.object(fields).superRefine(checkFields).transform(normalize);
export type ScheduleUpdateReq = z.infer<typeof ScheduleUpdateSchema>;
