import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { findChannel } from '../queries';
import { Channel } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { CompanySmtpError, parseSmtpUrl, sealSmtpUrl, vetSmtpHost } from './companySmtp';
import type { EmailChannelUpdateReq } from './schema';

const SMTP_URL_REQUIRED = 'Informe a URL do servidor SMTP da empresa.';

/**
 * PUT /integrations/mail/{id} (docs/channels/email.md "Tela do canal"): description, the From name and
 * address, and where replies go out. A company SMTP URL is checked (public host) and kept sealed with
 * CHANNEL_SECRETS_KEY; 'product' drops it. The forwarding address never changes.
 */
export async function updateEmailChannel(deps: Pick<AppDeps, 'knex' | 'config'>, actor: Actor, id: number, input: EmailChannelUpdateReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  const current = await findChannel(actor, 'email', id);
  if (!current) throw errors.notFound();
  const { smtpUrlSealed: saved, ...rest } = current.config ?? {};
  let smtpUrlSealed: string | undefined;
  if (input.smtp === 'company') {
    if (input.smtpUrl) {
      try {
        await vetSmtpHost(parseSmtpUrl(input.smtpUrl).hostname);
      } catch (err) {
        if (err instanceof CompanySmtpError) throw errors.field('smtpUrl', err.message);
        throw err;
      }
      smtpUrlSealed = sealSmtpUrl(deps.config, input.smtpUrl);
    } else if (typeof saved === 'string' && saved) smtpUrlSealed = saved;
    else throw errors.field('smtpUrl', SMTP_URL_REQUIRED);
  }
  const config = {
    ...rest,
    fromName: input.fromName || undefined,
    fromAddress: input.fromAddress || undefined,
    ...(smtpUrlSealed ? { smtpUrlSealed } : {}),
  };
  return Channel.query(deps.knex)
    .where({ workspaceId: actor.workspaceId, type: 'email' })
    .patchAndFetchById(id, { description: input.description, name: input.description, config: JSON.parse(JSON.stringify(config)) as Record<string, unknown> });
}
