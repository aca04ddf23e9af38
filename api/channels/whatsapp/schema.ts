import { z } from 'zod';
import { INVALID_LINE_PHONE, isValidLinePhone } from './phone';

const required = (message: string, max = 255) => z.string({ error: message }).trim().min(1, message).max(max, `No máximo ${max} caracteres.`);

/**
 * POST /integrations/whatsapp (issue 12): a QR line (default) or an official Cloud API line, whose four
 * Meta fields are then required. Shared with the settings screen. Unknown keys are dropped.
 */
export const WhatsappChannelSchema = z
  .object({
    name: required('O nome é obrigatório.', 120),
    phone: z.string({ error: INVALID_LINE_PHONE }).refine(isValidLinePhone, INVALID_LINE_PHONE),
    allowGroups: z.boolean().optional().default(false),
    provider: z.enum(['qr', 'cloud'], { error: 'Escolha QR ou API oficial.' }).optional().default('qr'),
    phoneNumberId: z.string().trim().max(64).optional(),
    businessAccountId: z.string().trim().max(64).optional(),
    accessToken: z.string().trim().max(1024).optional(),
    appSecret: z.string().trim().max(255).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.provider !== 'cloud') return;
    const needed = {
      phoneNumberId: 'Informe o ID do número de telefone.',
      businessAccountId: 'Informe o ID da conta do WhatsApp Business.',
      accessToken: 'Informe o token de acesso.',
      appSecret: 'Informe a chave secreta do app.',
    } as const;
    for (const [key, message] of Object.entries(needed)) {
      if (!v[key as keyof typeof needed]) ctx.addIssue({ code: 'custom', path: [key], message });
    }
    if (v.phoneNumberId && !/^\d+$/.test(v.phoneNumberId)) ctx.addIssue({ code: 'custom', path: ['phoneNumberId'], message: 'O ID do número tem só dígitos.' });
  });
export type WhatsappChannelReq = z.infer<typeof WhatsappChannelSchema>;

/** What a Cloud line keeps in channels.config; the two secrets sealed (api/channels/secretBox.ts). */
export interface CloudLineConfig {
  provider: 'cloud';
  phoneNumberId: string;
  businessAccountId: string;
  accessTokenSealed: string;
  appSecretSealed: string;
  verifyToken: string;
}

export function isCloudConfig(config: Record<string, unknown>): config is Record<string, unknown> & CloudLineConfig {
  return config.provider === 'cloud' && typeof config.phoneNumberId === 'string' && typeof config.accessTokenSealed === 'string';
}
