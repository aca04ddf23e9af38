import { z } from 'zod';
import { requiredText } from '../http/textFields';

/** Shared by the API and the group form in the UI. */
export const GroupCreateSchema = z.object({
  name: requiredText(80, { required: 'O nome do grupo é obrigatório.', tooLong: 'O nome do grupo deve ter no máximo 80 caracteres.' }),
  description: z.string().trim().max(500, 'A descrição deve ter no máximo 500 caracteres.').nullish(),
  icon: z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'Cor inválida: use o formato #RRGGBB.').nullish(),
  /** Operator ids; every one must be a member of the workspace. */
  members: z
    .array(z.number({ error: 'Agente inválido.' }).int('Agente inválido.').positive('Agente inválido.'))
    .max(1000, 'Um grupo pode ter no máximo 1000 agentes.')
    .optional(),
});
export type GroupCreateReq = z.infer<typeof GroupCreateSchema>;

export const GroupUpdateSchema = GroupCreateSchema.partial();
export type GroupUpdateReq = z.infer<typeof GroupUpdateSchema>;
