import type { Channel } from '../../models/Channel';
import { presentChannel } from '../../integrations/presenters';

/**
 * An e-mail channel for its settings page: the usual channel fields plus the outbound settings. The
 * company's SMTP URL (it carries a password) is never answered: only whether the channel has one.
 */
export function presentEmailChannel(row: Channel) {
  const config = row.config ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    ...presentChannel(row),
    fromName: text(config.fromName),
    fromAddress: text(config.fromAddress),
    smtp: typeof config.smtpUrlSealed === 'string' && config.smtpUrlSealed ? ('company' as const) : ('product' as const),
  };
}
export type EmailChannelView = ReturnType<typeof presentEmailChannel>;
