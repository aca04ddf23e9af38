import { z } from 'zod';
import type { SegmentInbox } from '../models/Segment';
import { SegmentFiltersSchema } from './filters';
import { requiredText } from '../http/textFields';

// A type-only import keeps the model (and objection) out of the UI bundle that shares this schema.
const SEGMENT_INBOXES = ['me', 'workspace'] as const satisfies readonly SegmentInbox[];
const HEX = /^#[0-9A-Fa-f]{6}$/;
// One emoji, possibly with modifiers, joiners and variation selectors (flags, skin tones, families).
const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200D|\uFE0F)+$/u;
// An icon font class list such as 'mdi mdi-inbox' or 'fa-solid fa-star'.
const ICON_CLASS = /^[A-Za-z][A-Za-z0-9_-]*(?: [A-Za-z][A-Za-z0-9_-]*)*$/;

const ICON_INVALID = 'Ícone inválido: use uma cor #RRGGBB, um emoji ou uma classe de ícone.';

/** SPEC §3: icon is a hex colour, an emoji or an icon class; empty means none. */
export const SegmentIconSchema = z
  .string({ error: ICON_INVALID })
  .trim()
  .max(60, 'O ícone deve ter no máximo 60 caracteres.')
  .refine((v) => v === '' || HEX.test(v) || (EMOJI.test(v) && v.length <= 32) || ICON_CLASS.test(v), ICON_INVALID)
  .nullish()
  .transform((v) => (v ? v : null));

/** Save (create, or update when `id` is sent) a saved inbox filter. Shared with the filter editor. */
export const SegmentSaveSchema = z.object({
  id: z.number().int().positive().optional(),
  name: requiredText(120, { required: 'O nome é obrigatório.', tooLong: 'O nome deve ter no máximo 120 caracteres.' }),
  icon: SegmentIconSchema,
  isPublic: z.boolean({ error: 'Valor inválido.' }).default(false),
  inbox: z.enum(SEGMENT_INBOXES, { error: "Escolha a caixa: 'me' ou 'workspace'." }).default('workspace'),
  filters: SegmentFiltersSchema.prefault({}),
});
export type SegmentSaveReq = z.infer<typeof SegmentSaveSchema>;

export const SegmentSortSchema = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(1000),
});
export type SegmentSortReq = z.infer<typeof SegmentSortSchema>;
