import { z } from 'zod';

/**
 * Requests of the inbox calls (docs/api/inbox.md), shared by the API and the inbox UI. Browser code imports
 * this file: it may import only zod, api/conversations/limits.ts and api/http/textFields.ts. Unknown body fields are dropped, never written.
 */

import { MAX_MESSAGE_CHARS } from '../conversations/limits';
import { queryInt } from '../http/textFields';

export { MAX_MESSAGE_CHARS };
export const MAX_FILES_PER_MESSAGE = 10;
export const MAX_TAGS_PER_CALL = 50;
/** matchCount/totalCount of the list are exact up to this and capped there. */
export const COUNT_CAP = 10_000;

const INT_MAX = 2_147_483_647;

/** An id in a JSON body; `max` is the column's range (int ids 2^31-1, bigint ids 2^53-1). */
const bodyId = (required: string, max = Number.MAX_SAFE_INTEGER) =>
  z.number({ error: required }).int('Identificador inválido.').positive('Identificador inválido.').max(max, 'Identificador inválido.');

/** An id in the query string. */
const queryId = (required: string) =>
  z
    .string({ error: required })
    .regex(/^[1-9][0-9]{0,14}$/, 'Identificador inválido.')
    .transform(Number);

const searchText = z
  .string()
  .max(500, 'A busca deve ter no máximo 500 caracteres.')
  .optional()
  .transform((s) => s?.trim().slice(0, 200) || undefined);

export const FIXED_SEGMENTS = ['all', 'starred', 'me', 'archived'] as const;
export type FixedSegment = (typeof FIXED_SEGMENTS)[number];

const segmentIdParam = z
  .string()
  .optional()
  .transform((s, ctx): FixedSegment | number => {
    const v = s ?? 'all';
    if ((FIXED_SEGMENTS as readonly string[]).includes(v)) return v as FixedSegment;
    if (/^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= INT_MAX) return Number(v);
    ctx.addIssue({ code: 'custom', message: 'Segmento inválido.' });
    return z.NEVER;
  });

/** GET /inbox */
export const InboxListQuerySchema = z.object({
  segmentId: segmentIdParam,
  limit: queryInt(20, 100).pipe(z.number().min(1, 'Deve ser no mínimo 1.')),
  offset: queryInt(0, 1_000_000),
  cursor: z.string().max(200, 'Cursor inválido.').optional(),
  query: searchText,
});
export type InboxListQuery = z.infer<typeof InboxListQuerySchema>;

/** GET /inbox/search (docs/search.md): one search over every conversation the viewer may see. */
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_MAX_PAGE = 50;
export const SearchQuerySchema = z.object({
  q: z
    .string({ error: 'Informe o que buscar.' })
    .max(200, 'A busca deve ter no máximo 200 caracteres.')
    .transform((s) => s.trim())
    .pipe(z.string().min(1, 'Informe o que buscar.').refine((s) => s.length >= 2 || /^[0-9]$/.test(s), 'Digite pelo menos 2 caracteres.')),
  page: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, 'Página inválida.')
    .transform(Number)
    .pipe(z.number().max(SEARCH_MAX_PAGE, `No máximo ${SEARCH_MAX_PAGE} páginas.`))
    .optional()
    .default(1),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export { MESSAGES_AROUND_NEWER } from '../conversations/limits';
export const MESSAGE_CURSORS = ['before', 'after', 'around'] as const;
export const ONE_MESSAGE_CURSOR = 'Use só um entre before, after e around.';

/**
 * GET /inbox/messages: newest first; `before` pages back from a message, `after` forward (the `limit` messages
 * right after it), `around` opens on a message (it, up to MESSAGES_AROUND_NEWER newer, the rest older).
 */
export const MessagesQuerySchema = z
  .object({
    id: queryId('Informe a conversa.'),
    limit: queryInt(30, 100).pipe(z.number().min(1, 'Deve ser no mínimo 1.')),
    offset: queryInt(0, 1_000_000),
    before: queryId('Identificador inválido.').optional(),
    after: queryId('Identificador inválido.').optional(),
    around: queryId('Identificador inválido.').optional(),
    callId: queryId('Identificador inválido.').optional(),
  })
  .superRefine((q, ctx) => {
    const given = MESSAGE_CURSORS.filter((k) => q[k] !== undefined);
    for (const key of given.slice(1)) ctx.addIssue({ code: 'custom', path: [key], message: ONE_MESSAGE_CURSOR });
  });
export type MessagesQuery = z.infer<typeof MessagesQuerySchema>;

export interface TextOpInput {
  insert: string;
}
export interface FileRefInput {
  file: { key: string };
}

/**
 * Message content: Quill Delta ops with string inserts (attributes are dropped), or file entries naming
 * keys of files uploaded to this workspace (`POST /assets/upload`); not both in one message.
 */
export const MessageContentSchema = z.array(z.unknown(), { error: 'Informe o conteúdo da mensagem.' }).transform((items, ctx): TextOpInput[] | FileRefInput[] => {
  const ops: TextOpInput[] = [];
  const files: FileRefInput[] = [];
  for (const item of items) {
    const rec = item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    if (rec && typeof rec.insert === 'string') ops.push({ insert: rec.insert });
    else if (rec?.file && typeof rec.file === 'object' && typeof (rec.file as { key?: unknown }).key === 'string' && (rec.file as { key: string }).key) {
      files.push({ file: { key: (rec.file as { key: string }).key.slice(0, 255) } });
    } else {
      ctx.addIssue({ code: 'custom', message: 'Conteúdo inválido: use operações de texto ou arquivos enviados.' });
      return z.NEVER;
    }
  }
  if (ops.length && files.length) {
    ctx.addIssue({ code: 'custom', message: 'Envie texto ou arquivos, não os dois na mesma mensagem.' });
    return z.NEVER;
  }
  if (files.length) {
    if (files.length > MAX_FILES_PER_MESSAGE) {
      ctx.addIssue({ code: 'custom', message: `Envie no máximo ${MAX_FILES_PER_MESSAGE} arquivos por mensagem.` });
      return z.NEVER;
    }
    return files;
  }
  const chars = ops.reduce((n, op) => n + op.insert.length, 0);
  if (chars > MAX_MESSAGE_CHARS) {
    ctx.addIssue({ code: 'custom', message: `A mensagem deve ter no máximo ${MAX_MESSAGE_CHARS} caracteres.` });
    return z.NEVER;
  }
  if (!ops.some((op) => op.insert.trim())) {
    ctx.addIssue({ code: 'custom', message: 'A mensagem não pode ser vazia.' });
    return z.NEVER;
  }
  return ops;
});

const conversationId = () => bodyId('Informe a conversa.');

/** POST /inbox/messages */
export const MessageSendSchema = z.object({
  id: conversationId(),
  content: MessageContentSchema,
  type: z
    .number({ error: 'Informe o tipo da mensagem.' })
    .refine((t) => t === 0 || t === 2, 'Tipo inválido: use 0 (mensagem) ou 2 (nota privada).')
    .transform((t) => t as 0 | 2),
  replyTo: bodyId('Identificador inválido.').nullish(),
});
export type MessageSendReq = z.infer<typeof MessageSendSchema>;

/** POST /inbox/:segment/:id */
export const ConversationStatusSchema = z.object({
  status: z.enum(['resolve', 'open'], { error: "Informe 'resolve' ou 'open'." }),
});
export type ConversationStatusReq = z.infer<typeof ConversationStatusSchema>;

/** PUT /inbox/tag */
export const ConversationTagsSchema = z.object({
  id: conversationId(),
  tags: z
    .array(bodyId('Identificador inválido.', INT_MAX), { error: 'Informe as etiquetas.' })
    .max(MAX_TAGS_PER_CALL, `No máximo ${MAX_TAGS_PER_CALL} etiquetas por atendimento.`)
    .transform((ids) => [...new Set(ids)]),
  callId: bodyId('Identificador inválido.').nullish(),
});
export type ConversationTagsReq = z.infer<typeof ConversationTagsSchema>;

/** POST /inbox/assignment */
export const AssignmentSchema = z.object({ id: conversationId() });
export type AssignmentReq = z.infer<typeof AssignmentSchema>;

const customerPlatformId = () => bodyId('Informe a conversa.');

/** POST /calls/transfer-operator: null unassigns ('Não atribuído'). */
export const TransferOperatorSchema = z.object({
  customerPlatformId: customerPlatformId(),
  operatorId: bodyId('Informe o agente.', INT_MAX).nullable(),
});
export type TransferOperatorReq = z.infer<typeof TransferOperatorSchema>;

/** POST /calls/transfer-group: null leaves the group ('Sem Grupo'). */
export const TransferGroupSchema = z.object({
  customerPlatformId: customerPlatformId(),
  groupId: bodyId('Informe o grupo.', INT_MAX).nullable(),
});
export type TransferGroupReq = z.infer<typeof TransferGroupSchema>;

/** POST /calls/init-bot: a bot id starts that bot on the conversation; `botId: null` is 'Atendimento manual' (stops the running bot). */
export const InitBotSchema = z.object({
  customerPlatformId: customerPlatformId(),
  botId: bodyId('Informe o bot.', INT_MAX).nullable(),
});
export type InitBotReq = z.infer<typeof InitBotSchema>;

/** POST /integrations/composing */
export const ComposingSchema = z.object({ customerPlatformId: customerPlatformId() });
export type ComposingReq = z.infer<typeof ComposingSchema>;

/** POST /inbox/active-chat: a new outbound WhatsApp conversation (SPEC §5 "New outbound message"). */
export const ACTIVE_CHAT_CONTENT_OR_TEMPLATE = 'Informe a mensagem ou escolha um modelo.';
export const ACTIVE_CHAT_NOT_BOTH = 'Envie a mensagem ou um modelo, não os dois.';
/**
 * An approved template of a Cloud line as the first message (docs/channels/whatsapp.md "New outbound
 * message"): `variables` fill the header's variables, then the body's, in the order the template lists them.
 */
export const ActiveChatTemplateSchema = z.object(
  {
    name: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(512, 'Modelo inválido.'),
    language: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(20, 'Modelo inválido.'),
    variables: z
      .array(z.string({ error: 'Informe o valor da variável.' }).max(1024, 'No máximo 1024 caracteres.'), { error: 'Variáveis inválidas.' })
      .max(100, 'Variáveis demais.')
      .optional()
      .default([]),
  },
  { error: 'Modelo inválido.' },
);
/** The fields of POST /inbox/active-chat without the content/template rule (the dialog extends these). */
export const ActiveChatFields = z.object({
  workspacePlatformId: bodyId('Selecione o canal.', INT_MAX),
  phone: z
    .string({ error: 'Informe o telefone.' })
    .max(19, 'O telefone deve ter no máximo 19 caracteres.')
    .transform((p) => p.replace(/\D/g, ''))
    .pipe(z.string().min(1, 'Informe o telefone.').max(13, 'O telefone deve ter no máximo 13 dígitos.')),
  name: z.string().trim().max(255, 'O nome deve ter no máximo 255 caracteres.').nullish(),
  avatar: z.string().trim().max(500, 'Avatar inválido.').nullish(),
  content: MessageContentSchema.optional(),
  template: ActiveChatTemplateSchema.optional(),
});
/** Exactly one of `content` (free text, QR lines) and `template` (required on Cloud lines, checked with the line). */
// `when`: the rule is reported with the other fields' errors, not only once they are valid.
export const ActiveChatSchema = ActiveChatFields.refine((v) => v.content !== undefined || v.template !== undefined, {
  path: ['content'],
  message: ACTIVE_CHAT_CONTENT_OR_TEMPLATE,
  when: (payload) => {
    const v = payload.value as { content?: unknown; template?: unknown } | undefined;
    return !!v && typeof v === 'object';
  },
}).refine((v) => v.content === undefined || v.template === undefined, {
  path: ['template'],
  message: ACTIVE_CHAT_NOT_BOTH,
  when: (payload) => {
    const v = payload.value as { content?: unknown; template?: unknown } | undefined;
    return !!v && typeof v === 'object';
  },
});
export type ActiveChatReq = z.infer<typeof ActiveChatSchema>;

const templateVariableValues = z
  .record(z.string().max(64), z.string({ error: 'Informe o valor da variável.' }).max(1024, 'No máximo 1024 caracteres.'), { error: 'Variáveis inválidas.' })
  .optional()
  .refine((v) => !v || Object.keys(v).length <= 100, 'Variáveis demais.');

/** POST /inbox/whatsapp-template: an approved template, with its variables, sent into a conversation. */
export const TemplateSendSchema = z.object({
  id: z.number({ error: 'Informe a conversa.' }).int().positive('Informe a conversa.'),
  name: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(512),
  language: z.string({ error: 'Escolha um modelo.' }).trim().min(1, 'Escolha um modelo.').max(20),
  header: templateVariableValues,
  body: templateVariableValues,
});
export type TemplateSendReq = z.infer<typeof TemplateSendSchema>;
