import { z } from 'zod';
import { queryInt, requiredText } from '../http/textFields';

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

/** Separators a phone mask adds ('+55 (11) 91234-5678'); what is stored is digits and '+'. */
export const PHONE_SEPARATORS = /[\s().-]/g;

/** A contact's e-mail as typed: trimmed, '' (cleared) or a valid address. Shared with the widget's pre-chat form. */
export const ContactEmailSchema = z
  .string({ error: 'E-mail inválido.' })
  .trim()
  .max(254, 'E-mail inválido.')
  .refine((v) => v === '' || z.email().safeParse(v).success, 'E-mail inválido.');

/** Edits the contact's fixed fields; a field left out is kept, an empty one is cleared. Shared with the contact panel. */
export const CustomerUpdateSchema = z.object({
  name: optionalText(255, 'O nome deve ter no máximo 255 caracteres.').optional(),
  email: ContactEmailSchema
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
    .optional(),
  phone: z
    .string({ error: 'Telefone inválido.' })
    .transform((v) => v.replace(PHONE_SEPARATORS, ''))
    .pipe(z.string().regex(/^(\+?[0-9]{1,31})?$/, 'Telefone inválido: use apenas dígitos e +, no máximo 32 caracteres.'))
    .nullish()
    .transform((v) => (v ? v : null))
    .optional(),
  details: optionalText(5000, 'Os detalhes devem ter no máximo 5000 caracteres.').optional(),
});
export type CustomerUpdateReq = z.infer<typeof CustomerUpdateSchema>;

/** name, email and phone are the contact's own fields; a custom property cannot take their code. */
export const FIXED_PROPERTY_CODES = ['name', 'email', 'phone'] as const;

/**
 * The code bots and filters use for a property, derived from its label like the bot input action's
 * inputPropCode: lowercase letters only ('Cidade natal' → 'cidadenatal', 'Órgão' → 'orgao').
 */
export function propertyCode(label: string): string {
  return label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .slice(0, 60);
}

/** Adds or (with `id`) edits a custom property (SPEC §5: name and value required). */
export const CustomerPropertySchema = z.object({
  id: z.number().int().positive().optional(),
  label: requiredText(120, { required: 'O nome da propriedade é obrigatório.', tooLong: 'O nome da propriedade deve ter no máximo 120 caracteres.' })
    .superRefine((label, ctx) => {
      const code = propertyCode(label);
      if (!code) ctx.addIssue({ code: 'custom', message: 'O nome da propriedade precisa conter letras.' });
      else if ((FIXED_PROPERTY_CODES as readonly string[]).includes(code)) {
        ctx.addIssue({ code: 'custom', message: 'Nome, e-mail e telefone já são campos do contato.' });
      }
    }),
  value: z
    .string({ error: 'O valor da propriedade é obrigatório.' })
    .trim()
    .min(1, 'O valor da propriedade é obrigatório.')
    .max(500, 'O valor da propriedade deve ter no máximo 500 caracteres.'),
});
export type CustomerPropertyReq = z.infer<typeof CustomerPropertySchema>;

const id = (message: string) => z.number({ error: message }).int(message).positive(message).max(2 ** 53 - 1, message);

/** PUT /customer/merge-customer: keeps stayId, moves leaveId's channels and properties to it. */
export const MergeCustomersSchema = z
  .object({
    stayId: id('Escolha o contato que fica.'),
    leaveId: id('Escolha o contato a mesclar.'),
  })
  .refine((v) => v.stayId !== v.leaveId, { path: ['leaveId'], message: 'Escolha dois contatos diferentes.' });
export type MergeCustomersReq = z.infer<typeof MergeCustomersSchema>;

/** GET /inbox/media-messages (SPEC §9: 30 per page). */
export const MediaMessagesQuerySchema = z.object({
  id: z.string({ error: 'Informe o contato.' }).regex(/^[1-9][0-9]{0,15}$/, 'Contato inválido.').transform(Number),
  limit: queryInt(30, 100).transform((v) => Math.max(v, 1)),
  offset: queryInt(0, 1_000_000),
});
export type MediaMessagesQuery = z.infer<typeof MediaMessagesQuerySchema>;

/** GET /customer/properties: suggestions for a property code, or for its values once `value` is typed. */
export const PropertySuggestionsQuerySchema = z.object({
  property: z.string({ error: 'Informe a propriedade.' }).trim().max(60, 'A propriedade deve ter no máximo 60 caracteres.'),
  value: z.string().trim().max(500, 'O valor deve ter no máximo 500 caracteres.').optional(),
  limit: queryInt(20, 100).transform((v) => Math.max(v, 1)),
});
export type PropertySuggestionsQuery = z.infer<typeof PropertySuggestionsQuerySchema>;
