import { errors } from '../http/errors';

export const NO_WHATSAPP_LINE = 'Nenhuma linha de WhatsApp conectada.';

/**
 * POST /inbox/active-chat: a new outbound WhatsApp conversation. WhatsApp lines come with their own issue,
 * so no channel can carry it yet: a request that passes validation gets the contract's field error.
 */
export function startActiveChat(): never {
  throw errors.field('workspacePlatformId', NO_WHATSAPP_LINE);
}
