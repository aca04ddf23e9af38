import { z } from 'zod';

/** POST /integrations/mail: only a description; the forwarding address is generated (SPEC §3 E-mail). */
export const EmailChannelSchema = z.object({
  description: z
    .string({ error: 'A descrição é obrigatória.' })
    .trim()
    .min(1, 'A descrição é obrigatória.')
    .max(120, 'A descrição deve ter no máximo 120 caracteres.'),
});
export type EmailChannelReq = z.infer<typeof EmailChannelSchema>;
