import { z } from 'zod';

/**
 * Requests of the team chat (docs/team-chat.md), shared by the API and the screens of ui/src/teamChat.
 * Browser code imports this file: it imports only zod. Unknown fields are dropped, never written.
 */

/** A message may be edited or deleted by its author for this long after it was sent. */
export const EDIT_WINDOW_MS = 15 * 60_000;
export const TEAM_MESSAGE_MAX_CHARS = 4000;
export const TEAM_ROOM_NAME_MAX = 80;
/** Messages per page of a room, newest first. */
export const TEAM_PAGE_SIZE = 30;
export const TEAM_SEARCH_PAGE_SIZE = 20;
export const TEAM_SEARCH_MAX_PAGE = 50;
/** Members a room created at level 6+ may have (a workspace has far fewer agents). */
export const TEAM_ROOM_MAX_MEMBERS = 500;

export const TEAM_KINDS = ['group', 'room', 'direct'] as const;
export type TeamRoomKind = (typeof TEAM_KINDS)[number];

/** `#1234`: a conversation's protocol, linked for a reader who may open that conversation. Not `&#123;`, not `a#1`. */
export const MENTION_PATTERN = /(?<![\p{L}\p{N}_&#])#([0-9]{1,15})(?![\p{L}\p{N}_])/gu;

/** The protocols a text mentions, in order of first appearance. */
export function mentionedProtocols(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(MENTION_PATTERN)) {
    const n = Number(m[1]);
    if (Number.isSafeInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out.slice(0, 20);
}

export const TEAM_TEXTS = {
  roomName: 'Informe o nome da sala.',
  roomNameLong: `O nome deve ter no máximo ${TEAM_ROOM_NAME_MAX} caracteres.`,
  members: 'Escolha os participantes.',
  tooManyMembers: `No máximo ${TEAM_ROOM_MAX_MEMBERS} participantes.`,
  memberNotFound: 'Agente não encontrado neste workspace.',
  memberPending: 'Este agente ainda não aceitou o convite.',
  memberInactive: 'Este agente está desativado.',
  directSelf: 'Escolha outro agente.',
  directGone: 'Este agente não faz mais parte do workspace.',
  empty: 'Escreva a mensagem ou anexe um arquivo.',
  tooLong: `A mensagem deve ter no máximo ${TEAM_MESSAGE_MAX_CHARS} caracteres.`,
  fileNotFound: 'Arquivo não encontrado. Envie o arquivo novamente.',
  notAuthor: 'Só quem escreveu a mensagem pode alterá-la ou apagá-la.',
  windowClosed: 'Uma mensagem só pode ser alterada ou apagada até 15 minutos depois do envio.',
  deleted: 'Esta mensagem foi apagada.',
  notRoom: 'Só as salas criadas no chat podem ser alteradas aqui; a sala de um grupo segue o grupo (Configurações → Grupos).',
  apiToken: 'O chat da equipe é para pessoas: o token de API não pode ser usado nele.',
  roomNotFound: 'Sala não encontrada.',
  messageNotFound: 'Mensagem não encontrada.',
} as const;

const id = (message: string) => z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

const roomName = z.string({ error: TEAM_TEXTS.roomName }).trim().min(1, TEAM_TEXTS.roomName).max(TEAM_ROOM_NAME_MAX, TEAM_TEXTS.roomNameLong);
const memberIds = z.array(id(TEAM_TEXTS.memberNotFound), { error: TEAM_TEXTS.members }).max(TEAM_ROOM_MAX_MEMBERS, TEAM_TEXTS.tooManyMembers);

/** POST /team/rooms (level 6+): a named room; its creator is always in it. */
export const TeamRoomCreateSchema = z.object({ name: roomName, members: memberIds.optional().default([]) });
export type TeamRoomCreateReq = z.infer<typeof TeamRoomCreateSchema>;

/** PUT /team/rooms/{id} (level 6+): a new name and/or the whole new set of members. */
export const TeamRoomUpdateSchema = z.object({ name: roomName.optional(), members: memberIds.optional() });
export type TeamRoomUpdateReq = z.infer<typeof TeamRoomUpdateSchema>;

/** POST /team/direct: the conversation with another agent, opened (created the first time). */
export const TeamDirectSchema = z.object({ operatorId: id(TEAM_TEXTS.memberNotFound) });
export type TeamDirectReq = z.infer<typeof TeamDirectSchema>;

const body = z.string({ error: 'Texto inválido.' }).max(TEAM_MESSAGE_MAX_CHARS, TEAM_TEXTS.tooLong);
const fileRef = z
  .object({ key: z.string({ error: 'Arquivo inválido.' }).min(1, 'Arquivo inválido.').max(255, 'Arquivo inválido.') }, { error: 'Arquivo inválido.' })
  .nullable()
  .optional()
  .transform((v) => v ?? null);

/** POST /team/rooms/{id}/messages: text (with `#protocolo` mentions) and/or one uploaded file. */
export const TeamMessageSchema = z
  .object({ body: body.optional().default(''), file: fileRef })
  .superRefine((v, ctx) => {
    if (!v.body.trim() && !v.file) ctx.addIssue({ code: 'custom', path: ['body'], message: TEAM_TEXTS.empty });
  });
export type TeamMessageReq = z.infer<typeof TeamMessageSchema>;

/** PUT /team/rooms/{id}/messages/{messageId}: the new text (a file stays as it was). */
export const TeamMessageEditSchema = z.object({ body });
export type TeamMessageEditReq = z.infer<typeof TeamMessageEditSchema>;

/** POST /team/rooms/{id}/read: read up to this message (default: the newest). */
export const TeamReadSchema = z.object({ messageId: z.number({ error: TEAM_TEXTS.messageNotFound }).int(TEAM_TEXTS.messageNotFound).positive(TEAM_TEXTS.messageNotFound).max(Number.MAX_SAFE_INTEGER, TEAM_TEXTS.messageNotFound).optional() });
export type TeamReadReq = z.infer<typeof TeamReadSchema>;

const cursor = z.string().regex(/^[1-9][0-9]{0,14}$/, 'Cursor inválido.').transform(Number).optional();

/** GET /team/rooms/{id}/messages: the newest page, or the page before a message id. */
export const TeamMessagesQuerySchema = z.object({
  before: cursor,
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, 'Limite inválido.')
    .transform(Number)
    .pipe(z.number().max(100, 'No máximo 100 mensagens por página.'))
    .optional()
    .default(TEAM_PAGE_SIZE),
});
export type TeamMessagesQuery = z.infer<typeof TeamMessagesQuerySchema>;

/** GET /team/search: the caller's rooms' messages, newest first; `roomId` narrows it to one room. */
export const TeamSearchSchema = z.object({
  q: z
    .string({ error: 'Informe o que buscar.' })
    .max(200, 'A busca deve ter no máximo 200 caracteres.')
    .transform((s) => s.trim())
    .pipe(z.string().min(2, 'Digite pelo menos 2 caracteres.')),
  roomId: z.string().regex(/^[1-9][0-9]{0,9}$/, TEAM_TEXTS.roomNotFound).transform(Number).optional(),
  page: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, 'Página inválida.')
    .transform(Number)
    .pipe(z.number().max(TEAM_SEARCH_MAX_PAGE, `No máximo ${TEAM_SEARCH_MAX_PAGE} páginas.`))
    .optional()
    .default(1),
});
export type TeamSearchQuery = z.infer<typeof TeamSearchSchema>;
