import { z } from 'zod';
import { queryInt, requiredText } from '../http/textFields';
import { InboxListQuerySchema } from '../inbox/schema';

/**
 * Requests of the kanban (docs/kanban.md), shared by the API and the board in the UI. Browser code imports
 * this file: it may import only zod, api/http/textFields.ts and api/inbox/schema.ts (itself browser-safe).
 */

const INT_MAX = 2_147_483_647;

/** How the board makes its columns: the conversation's state, its call's tags, its group or a funnel's stages. */
export const KANBAN_GROUPINGS = ['status', 'tag', 'group', 'stage'] as const;
export type KanbanGrouping = (typeof KANBAN_GROUPINGS)[number];

/** The columns of 'status' (SPEC's dashboard words: waiting, in service, finished). */
export const STATUS_COLUMNS = ['waiting', 'active', 'resolved'] as const;
export type StatusColumn = (typeof STATUS_COLUMNS)[number];

/** The column of conversations without a tag / group / stage of the funnel shown. */
export const NONE_COLUMN = 'none';

/** First page of every column; a column's next pages. */
export const BOARD_PAGE = 20;
export const COLUMN_PAGE = 30;
/** At most this many tag columns (the workspace's first tags in their order). */
export const MAX_TAG_COLUMNS = 50;
export const MAX_STAGES = 20;

const COLUMN_KEY = /^(waiting|active|resolved|none|[1-9][0-9]{0,9})$/;
const columnKey = (required: string) =>
  z
    .string({ error: required })
    .regex(COLUMN_KEY, 'Coluna inválida.')
    .refine((k) => !/^[0-9]+$/.test(k) || Number(k) <= INT_MAX, 'Coluna inválida.');

const queryId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'Identificador inválido.')
  .transform(Number)
  .refine((n) => n <= INT_MAX, 'Identificador inválido.');

const grouping = z.enum(KANBAN_GROUPINGS, { error: 'Agrupamento inválido: use status, tag, group ou stage.' });

const needsFunnel = (v: { groupBy: KanbanGrouping; funnelId?: number | null }) => v.groupBy !== 'stage' || (v.funnelId !== undefined && v.funnelId !== null);
const funnelRequired = { message: 'Escolha o funil.', path: ['funnelId'] };

/** GET /kanban: the first page of every column. The inbox's filters: segmentId (built-in or saved) and query. */
export const BoardQuerySchema = z
  .object({
    groupBy: grouping.optional().transform((g) => g ?? 'status'),
    funnelId: queryId.optional(),
    segmentId: InboxListQuerySchema.shape.segmentId,
    query: InboxListQuerySchema.shape.query,
    limit: queryInt(BOARD_PAGE, 50).pipe(z.number().min(1, 'Deve ser no mínimo 1.')),
  })
  .refine(needsFunnel, funnelRequired);
export type BoardQuery = z.infer<typeof BoardQuerySchema>;

/** GET /kanban/column: one column's next page (`cursor` from the previous page). */
export const ColumnQuerySchema = z
  .object({
    groupBy: grouping.optional().transform((g) => g ?? 'status'),
    funnelId: queryId.optional(),
    segmentId: InboxListQuerySchema.shape.segmentId,
    query: InboxListQuerySchema.shape.query,
    column: columnKey('Informe a coluna.'),
    cursor: InboxListQuerySchema.shape.cursor,
    limit: queryInt(COLUMN_PAGE, 100).pipe(z.number().min(1, 'Deve ser no mínimo 1.')),
  })
  .refine(needsFunnel, funnelRequired);
export type ColumnQuery = z.infer<typeof ColumnQuerySchema>;

/**
 * POST /kanban/move: the card `id` goes from column `from` to column `to` of the board grouped by `groupBy`
 * (of funnel `funnelId`). `from` matters for tags only: the tag the card was dragged from is taken off.
 */
export const KanbanMoveSchema = z
  .object({
    id: z.number({ error: 'Informe a conversa.' }).int('Identificador inválido.').positive('Identificador inválido.').max(Number.MAX_SAFE_INTEGER, 'Identificador inválido.'),
    groupBy: z.enum(KANBAN_GROUPINGS, { error: 'Agrupamento inválido: use status, tag, group ou stage.' }),
    funnelId: z.number({ error: 'Escolha o funil.' }).int('Identificador inválido.').positive('Identificador inválido.').max(INT_MAX, 'Identificador inválido.').nullish(),
    from: columnKey('Coluna inválida.').nullish(),
    to: columnKey('Informe a coluna de destino.'),
  })
  .refine(needsFunnel, funnelRequired);
export type KanbanMoveReq = z.infer<typeof KanbanMoveSchema>;

const hex = z.string({ error: 'Escolha a cor da etapa.' }).regex(/^#[0-9A-Fa-f]{6}$/, 'Cor inválida: use o formato #RRGGBB.');

/** One stage as the funnel form sends it: an existing stage keeps its `id`; without one it is new. Order is the array's. */
export const FunnelStageSchema = z.object({
  id: z.number().int('Identificador inválido.').positive('Identificador inválido.').max(INT_MAX, 'Identificador inválido.').nullish(),
  name: requiredText(60, { required: 'O nome da etapa é obrigatório.', tooLong: 'O nome da etapa deve ter no máximo 60 caracteres.' }),
  color: hex,
});
export type FunnelStageReq = z.infer<typeof FunnelStageSchema>;

const stages = z
  .array(FunnelStageSchema, { error: 'Informe as etapas.' })
  .min(1, 'Um funil precisa de ao menos uma etapa.')
  .max(MAX_STAGES, `Um funil pode ter no máximo ${MAX_STAGES} etapas.`)
  .refine((list) => new Set(list.map((s) => s.name.trim().toLowerCase())).size === list.length, 'Duas etapas não podem ter o mesmo nome.')
  .refine((list) => {
    const ids = list.map((s) => s.id).filter((id): id is number => typeof id === 'number');
    return new Set(ids).size === ids.length;
  }, 'Uma etapa aparece duas vezes.');

/** POST /funnels (level 6+); the form of the board's 'Funis' dialog. */
export const FunnelCreateSchema = z.object({
  name: requiredText(80, { required: 'O nome do funil é obrigatório.', tooLong: 'O nome do funil deve ter no máximo 80 caracteres.' }),
  stages,
});
export type FunnelCreateReq = z.infer<typeof FunnelCreateSchema>;

/** PUT /funnels/:id: the stages sent become the funnel's, in that order; a stage left out is deleted (its conversations leave the funnel). */
export const FunnelUpdateSchema = FunnelCreateSchema.partial();
export type FunnelUpdateReq = z.infer<typeof FunnelUpdateSchema>;
