import { z } from 'zod';

const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'Cor inválida: use o formato #RRGGBB.');

/** Shared by the API and the tag form in the UI. */
export const TagCreateSchema = z.object({
  name: z
    .string({ error: 'O nome da etiqueta é obrigatório.' })
    .trim()
    .min(1, 'O nome da etiqueta é obrigatório.')
    .max(60, 'O nome da etiqueta deve ter no máximo 60 caracteres.'),
  color: hex,
  textColor: hex,
});
export type TagCreateReq = z.infer<typeof TagCreateSchema>;

export const TagUpdateSchema = TagCreateSchema.partial();
export type TagUpdateReq = z.infer<typeof TagUpdateSchema>;
