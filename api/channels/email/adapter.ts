import { createHmac } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { ChannelAdapter, ChannelDeps, ChannelRecord, OutboundMessage } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { outboundIdempotencyKey } from '../outbound/keys';
import { readStoredFile } from '../outbound/storedFile';
import { normalizeContent, isFileItem } from '../../conversations/content';
import { addressOfIdentity } from './addresses';
import { channelSmtp, companyTransport, CompanySmtpError } from './companySmtp';

const transports = new Map<string, Transporter>();

function smtpTransport(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function replySubject(subject: string): string {
  const s = subject.trim();
  if (!s) return 'Re: (sem assunto)';
  return /^re:/i.test(s) ? s : `Re: ${s}`;
}

/** The thread this reply continues: the Message-IDs of the conversation and its last subject. */
async function threadOf(deps: ChannelDeps, conversationId: number, messageId: number) {
  const rows: { externalId: string | null; sender: string; extraData: Record<string, unknown> | null }[] = await deps.knex('messages')
    .where({ customerPlatformId: conversationId })
    .whereNot({ id: messageId })
    .whereNot('type', 1)
    .where((q) => {
      void q.whereNotNull('external_id').orWhereRaw("extra_data->>'messageId' IS NOT NULL");
    })
    .orderBy('id', 'desc')
    .limit(30)
    .select('external_id', 'sender', 'extra_data');
  const ids = rows
    .map((r) => (typeof r.extraData?.messageId === 'string' ? r.extraData.messageId : r.externalId))
    .filter((v): v is string => Boolean(v && v.startsWith('<')));
  const lastCustomer = rows.find((r) => r.sender === 'customer');
  const subject = rows.map((r) => r.extraData?.subject).find((s): s is string => typeof s === 'string' && s.length > 0) ?? '';
  const inReplyTo = (typeof lastCustomer?.extraData?.messageId === 'string' ? lastCustomer.extraData.messageId : undefined) ?? ids[0];
  return { references: [...ids].reverse(), inReplyTo, subject };
}

/** The subject of a thread's first mail when an agent opened it (Contacts page): its own, without 'Re:'. */
async function openingSubject(deps: ChannelDeps, messageId: number): Promise<string | undefined> {
  const row: { extraData: Record<string, unknown> | null } | undefined = await deps.knex('messages').where({ id: messageId }).first('extra_data');
  const subject = row?.extraData?.subject;
  return typeof subject === 'string' && subject.trim() ? subject.trim() : undefined;
}

/** The failed reply's reason when neither the channel's own SMTP nor SMTP_URL is configured. */
export const NOT_SENT_WITHOUT_SMTP = 'Não enviado: configure o SMTP de saída';

/** Whether the channel's replies reach anyone: it has its own SMTP, or the product has SMTP_URL. */
export function emailOutboundConfigured(config: { smtpUrl?: string | undefined }, channelConfig: Record<string, unknown>): boolean {
  return Boolean(config.smtpUrl) || (typeof channelConfig.smtpUrlSealed === 'string' && channelConfig.smtpUrlSealed.length > 0);
}

/**
 * E-mail (docs/channels/email.md): agent replies go out by nodemailer, through the channel's own SMTP or
 * SMTP_URL. With neither, the reply is written to DATA_DIR/outbox (for development) and fails with
 * NOT_SENT_WITHOUT_SMTP, so the agent does not take it for delivered. Each reply continues the thread (In-Reply-To,
 * References, 'Re:' subject), answers to the forwarding address, and carries a Message-ID we keep as the
 * message's external id, so the customer's answer threads back into the conversation.
 */
export const emailAdapter: ChannelAdapter = {
  type: 'email',
  canReply: false,
  canDelete: false,
  remote: true,
  async send(deps: ChannelDeps, channel: ChannelRecord, message: OutboundMessage) {
    const to = addressOfIdentity(message.recipient);
    if (!to.includes('@')) throw new ChannelSendError('Endereço de e-mail do contato inválido.', { transient: false });
    const thread = await threadOf(deps, message.conversationId, message.messageId);
    const opening = thread.subject ? undefined : await openingSubject(deps, message.messageId);
    const domain = deps.config.inboundEmailDomain;
    // The same Message-ID on every attempt (a retry after a lost answer is the same mail to the receiver),
    // yet unguessable: only those who received it can name it in In-Reply-To (see inbound.ts).
    const key = message.idempotencyKey ?? outboundIdempotencyKey(message.messageId);
    const messageId = `<${createHmac('sha256', deps.config.jwtSecret).update(`balcao:mail:message-id:${key}`).digest('hex').slice(0, 32)}@${domain}>`;
    const fromName = (typeof channel.config.fromName === 'string' && channel.config.fromName) || channel.description || channel.name || 'Balcão';
    const fromAddress = (typeof channel.config.fromAddress === 'string' && channel.config.fromAddress) || channel.identifier;
    const files = normalizeContent(message.content).filter(isFileItem).map((i) => i.file);
    const attachments = await Promise.all(files.map(async (f) => ({ filename: f.fileName, content: await readStoredFile(deps, f.key), contentType: f.mime })));
    const text = message.text || '';
    const signature = message.operator ? `\n\n— ${message.operator.name}` : '';
    const mail = {
      from: { name: fromName, address: fromAddress },
      to,
      replyTo: channel.identifier,
      subject: thread.subject || !opening ? replySubject(thread.subject) : opening,
      messageId,
      inReplyTo: thread.inReplyTo,
      references: thread.references,
      text: text + signature,
      html: `<div>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</div>${message.operator ? `<p>— ${escapeHtml(message.operator.name)}</p>` : ''}`,
      ...(attachments.length ? { attachments } : {}),
    };
    try {
      const company = channelSmtp(deps.config, channel.config);
      if (company) {
        const transport = await companyTransport(company);
        try {
          await transport.sendMail(mail);
        } finally {
          transport.close();
        }
      } else if (deps.config.smtpUrl) {
        await smtpTransport(deps.config.smtpUrl).sendMail(mail);
      } else {
        const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(mail);
        const outbox = path.join(deps.config.dataDir, 'outbox');
        await mkdir(outbox, { recursive: true, mode: 0o700 });
        await chmod(outbox, 0o700);
        const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-mensagem-${message.messageId}.eml`);
        await writeFile(file, built.message as Buffer, { mode: 0o600 });
        deps.logger.warn({ to, file, messageId: message.messageId }, 'channel mail not sent (no outbound SMTP): written to outbox');
        // Written for development, but the customer got nothing: the message says so instead of 'sent'.
        throw new ChannelSendError(NOT_SENT_WITHOUT_SMTP, { transient: false, code: 'no-smtp' });
      }
    } catch (err) {
      if (err instanceof ChannelSendError) throw err;
      // A company server we may not contact (its name now resolves to a private address) fails the message.
      if (err instanceof CompanySmtpError) throw new ChannelSendError(err.message, { transient: err.transient });
      const e = err as { responseCode?: number; code?: string; message?: string };
      deps.logger.warn({ err, messageId: message.messageId }, 'channel mail not sent');
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
      throw new ChannelSendError(permanent ? `O servidor de e-mail recusou a mensagem (${e.responseCode}).` : 'Falha ao enviar o e-mail; nova tentativa em breve.', {
        transient: !permanent,
        code: e.responseCode ? String(e.responseCode) : e.code,
      });
    }
    return { externalId: messageId };
  },
};
