import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { ChannelRecord, ChannelType } from '../adapter';
import type { InboundDeps } from '../../conversations/receiveInbound';
import { MAIL_SIZE_LIMIT, MAX_RECIPIENTS, normalizeAddress } from './addresses';
import { handleInboundMail } from './inbound';

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

async function channelFor(deps: InboundDeps, address: string): Promise<ChannelRecord | undefined> {
  const row = await deps.knex('channels').where({ identifier: address, type: 'email' }).first('id', 'workspace_id', 'type', 'platform_id', 'identifier', 'description', 'name', 'config');
  return row ? { ...row, type: row.type as ChannelType, config: row.config ?? {} } : undefined;
}

/**
 * The e-mail channel's inbound SMTP server (docs/channels/email.md), run by the api process on SMTP_PORT.
 * RCPT TO is accepted only for an existing forwarding address (550 otherwise), at most MAX_RECIPIENTS per
 * mail, 25 MB per mail. A mail is answered 250 only after it is stored; a failure answers 451 so the
 * sending server retries (the Message-ID keeps the retry from storing it twice).
 */
export async function startInboundSmtp(deps: InboundDeps, options: { port: number; host: string }): Promise<InboundSmtp> {
  const server = new SMTPServer({
    name: deps.config.inboundEmailDomain,
    banner: 'Balcão',
    size: MAIL_SIZE_LIMIT,
    authOptional: true,
    disabledCommands: ['AUTH'],
    maxClients: 50,
    socketTimeout: 60_000,
    logger: false,
    onMailFrom(_address: SMTPServerAddress, _session, callback) {
      callback();
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError('Too many recipients', 452));
      channelFor(deps, normalizeAddress(address.address)).then(
        (channel) => callback(channel ? undefined : smtpError('Mailbox unavailable', 550)),
        (err: unknown) => {
          deps.logger.error({ err }, 'smtp recipient lookup failed');
          callback(smtpError('Temporary failure, try again later', 451));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(smtpError('Message exceeds the 25 MB limit', 552));
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const recipients = [...new Set(session.envelope.rcptTo.map((r) => normalizeAddress(r.address)))];
        (async () => {
          const mail = await simpleParser(raw);
          for (const rcpt of recipients) {
            const channel = await channelFor(deps, rcpt);
            if (!channel) continue;
            const outcome = await handleInboundMail(deps, channel, mail, raw, { mailFrom });
            deps.logger.info({ channelId: channel.id, outcome, messageId: mail.messageId }, 'inbound mail');
          }
        })().then(
          () => callback(),
          (err: unknown) => {
            deps.logger.error({ err }, 'inbound mail not stored');
            callback(smtpError('Temporary failure, try again later', 451));
          },
        );
      });
    },
  });
  server.on('error', (err) => deps.logger.warn({ err }, 'smtp server error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
