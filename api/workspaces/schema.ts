import { z } from 'zod';
import { REQUIRED, avatar, id, requiredName } from '../auth/fields';

/** Request bodies of /workspace (SPEC §7), shared with the UI forms: imports only zod. */

export const WorkspaceCreateSchema = z.strictObject({
  name: requiredName(),
});
export type WorkspaceCreateReq = z.infer<typeof WorkspaceCreateSchema>;

function isTimeZone(v: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

/** SPEC names the field `workspace` (session shape) while GET /workspace answers `name`: both are accepted. */
export const WorkspaceUpdateSchema = z
  .strictObject({
    workspace: requiredName().optional(),
    name: requiredName().optional(),
    avatar: avatar(),
    timeZone: z
      .string({ error: 'Deve ser um texto.' })
      .max(64, 'Fuso horário inválido.')
      .refine(isTimeZone, 'Fuso horário inválido.')
      .optional(),
    /** An agent's reply that ends a bot also takes an unassigned conversation (docs/bots.md). */
    assignOnManualReply: z.boolean({ error: 'Deve ser verdadeiro ou falso.' }).optional(),
    /** Agents turn 'ausente' after this many idle minutes (null = never; docs/assignment.md "Availability"). */
    awayAfterMinutes: z
      .number({ error: 'Informe um número de minutos.' })
      .int('Informe um número inteiro de minutos.')
      .min(1, 'Mínimo de 1 minuto.')
      .max(1440, 'Máximo de 1440 minutos (24 horas).')
      .nullable()
      .optional(),
    workspaceId: id().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.workspace === undefined && v.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: REQUIRED });
  })
  .transform(({ workspace, name, ...rest }) => ({ ...rest, name: (name ?? workspace) as string }));
export type WorkspaceUpdateReq = z.infer<typeof WorkspaceUpdateSchema>;
