import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { findChannel } from '../queries';
import { Channel } from '../../models/Channel';
import type { Actor } from '../../policy/policy';
import { digitsOf } from './phone';
import { sealSecret } from '../secretBox';
import { setChannelStatus } from '../channelStatus';
import { isCloudConfig } from './schema';

/**
 * PUT /integrations/whatsapp/:id (SPEC §5 WhatsApp line): the name and allowGroups change; the phone
 * never does (a body that carries a different one is refused on `phone`, the same number is accepted).
 * A Cloud line also takes a new access token / app secret (sealed like at creation); a new token puts a
 * disconnected line back to `connected` (announced with channel.status).
 */
export const WhatsappLineUpdateSchema = z.object({
  name: z.string({ error: 'O nome é obrigatório.' }).trim().min(1, 'O nome é obrigatório.').max(120, 'No máximo 120 caracteres.'),
  allowGroups: z.boolean({ error: 'Informe se a linha recebe mensagens de grupos.' }).optional(),
  phone: z.string().max(40).optional(),
  /** Cloud lines: a new access token or app secret (e.g. after Meta revoked the old token). Empty keeps the stored one. */
  accessToken: z.string().trim().max(1024).optional(),
  appSecret: z.string().trim().max(255).optional(),
});
export type WhatsappLineUpdateReq = z.infer<typeof WhatsappLineUpdateSchema>;

export const PHONE_NOT_EDITABLE = 'O número não pode ser alterado depois de criado.';
export const LINE_NOT_FOUND = 'Linha de WhatsApp não encontrada.';

/** PUT /integrations/whatsapp/:id, level 6+; another workspace's id is a 404. */
export async function updateWhatsappLine(deps: AppDeps, actor: Actor, id: number, input: WhatsappLineUpdateReq): Promise<Channel> {
  const updated = await Channel.transaction(deps.knex, async (trx) => {
    const channel = await findChannel(actor, 'whatsapp', id, trx);
    if (!channel) throw errors.notFound(LINE_NOT_FOUND);
    if (input.phone !== undefined && digitsOf(input.phone) !== channel.phone) throw errors.field('phone', PHONE_NOT_EDITABLE);
    const config = channel.config ?? {};
    const secrets = { ...(input.accessToken ? { accessTokenSealed: sealSecret(deps.config, input.accessToken) } : {}), ...(input.appSecret ? { appSecretSealed: sealSecret(deps.config, input.appSecret) } : {}) };
    if (Object.keys(secrets).length && !isCloudConfig(config)) throw errors.field(input.accessToken ? 'accessToken' : 'appSecret', 'Só linhas da API oficial têm token de acesso e chave secreta.');
    const row = await channel.$query(trx).patchAndFetch({
      name: input.name,
      description: input.name,
      ...(input.allowGroups !== undefined ? { allowGroups: input.allowGroups } : {}),
      ...(Object.keys(secrets).length ? { config: { ...config, ...secrets } } : {}),
      updatedAt: new Date(),
    });
    return { row, reconnect: !!input.accessToken && row.status === 'disconnected' };
  });
  if (updated.reconnect) updated.row.status = (await setChannelStatus(deps, { id: updated.row.id, workspaceId: actor.workspaceId }, 'connected')) ? 'connected' : updated.row.status;
  return updated.row;
}
