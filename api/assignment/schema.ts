import { z } from 'zod';

/** Shared by the API and the assignment-rule form in the UI. */
const id = (message: string) => z.number({ error: message }).int(message).positive(message);

export const AssignmentTargetSchema = z
  .strictObject({
    group: id('Grupo inválido.').nullish(),
    operator: id('Agente inválido.').nullish(),
    workspacePlatformId: id('Selecione um canal.'),
    /** Optional schedule: outside it the round-robin finds nobody eligible and the call waits in the group. */
    businessHours: id('Horário comercial inválido.').nullish(),
  })
  .refine((r) => r.group != null || r.operator != null, { message: 'Selecione um grupo ou um agente.', path: ['group'] });

const name = z
  .string({ error: 'O nome é obrigatório.' })
  .trim()
  .min(1, 'O nome é obrigatório.')
  .max(120, 'O nome deve ter no máximo 120 caracteres.');

export const AssignmentRuleCreateSchema = z.strictObject({
  name,
  isActive: z.boolean().optional(),
  rules: AssignmentTargetSchema,
});
export type AssignmentRuleCreateReq = z.infer<typeof AssignmentRuleCreateSchema>;

export const AssignmentRuleUpdateSchema = z.strictObject({
  name: name.optional(),
  isActive: z.boolean().optional(),
  rules: AssignmentTargetSchema.optional(),
  sort: z.number().int().optional(),
});
export type AssignmentRuleUpdateReq = z.infer<typeof AssignmentRuleUpdateSchema>;

export const PresenceSchema = z.strictObject({ online: z.boolean({ error: 'Informe online: true ou false.' }) });

export const AVAILABILITIES = ['online', 'ausente'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
/** PUT /api/operators/availability: the caller's own availability (offline is logging out, not a value here). */
export const AvailabilitySchema = z.strictObject({
  availability: z.enum(AVAILABILITIES, { error: "Escolha 'online' ou 'ausente'." }),
});
export type AvailabilityReq = z.infer<typeof AvailabilitySchema>;
