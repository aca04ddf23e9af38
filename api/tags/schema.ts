import { z } from 'zod';
import { requiredText } from '../http/textFields';

const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'Cor inválida: use o formato #RRGGBB.');

/** Shared by the API and the tag form in the UI. */
export const TagCreateSchema = z.object({
  name: requiredText(60, { required: 'O nome da etiqueta é obrigatório.', tooLong: 'O nome da etiqueta deve ter no máximo 60 caracteres.' }),
  color: hex,
  textColor: hex,
});
export type TagCreateReq = z.infer<typeof TagCreateSchema>;

export const TagUpdateSchema = TagCreateSchema.partial();
export type TagUpdateReq = z.infer<typeof TagUpdateSchema>;
