import type { Channel } from '../../models/Channel';
import { presentChannel } from '../presentChannel';
import { emailOutboundConfigured } from './adapter';

/**
 * An e-mail channel for its settings page: the usual channel fields plus the outbound settings. The
 * company's SMTP URL (it carries a password) is never answered: only whether the channel has one.
 * `outboundReady` is false when replies have no SMTP to go through (no company SMTP and no SMTP_URL).
 */
export function presentEmailChannel(row: Channel, productConfig: { smtpUrl?: string | undefined }) {
  const config = row.config ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    ...presentChannel(row),
    fromName: text(config.fromName),
    fromAddress: text(config.fromAddress),
    smtp: typeof config.smtpUrlSealed === 'string' && config.smtpUrlSealed ? ('company' as const) : ('product' as const),
    outboundReady: emailOutboundConfigured(productConfig, config),
  };
}
export type EmailChannelView = ReturnType<typeof presentEmailChannel>;
