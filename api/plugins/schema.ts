import { z } from 'zod';
import { pluginEndpointProblem } from './endpoint';

const REQUIRED = 'Campo obrigatório.';

/** Shared by the API and the plugin form in the UI. */
export const PluginCreateSchema = z.strictObject({
  name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(120, 'Deve ter no máximo 120 caracteres.'),
  endpoint: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED, abort: true })
    .max(2048, 'Deve ter no máximo 2048 caracteres.')
    .superRefine((value, ctx) => {
      const problem = pluginEndpointProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  dev: z.boolean().optional(),
});
export type PluginCreateReq = z.infer<typeof PluginCreateSchema>;

export const PluginUpdateSchema = PluginCreateSchema.partial().extend({
  /** true: a new authSecret replaces the old one (the frame's tokens are signed with the new one from then on). */
  regenerateSecret: z.boolean().optional(),
});
export type PluginUpdateReq = z.infer<typeof PluginUpdateSchema>;

/** POST /api/plugin/:id/token: the conversation open beside the plugin, if any (docs/plugins.md). */
export const PluginTokenSchema = z.strictObject({
  conversationId: z.number().int().positive().nullable().optional(),
});
export type PluginTokenReq = z.infer<typeof PluginTokenSchema>;
