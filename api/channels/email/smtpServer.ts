import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { ChannelRecord } from '../adapter';
import { AppError } from '../../http/errors';
import type { InboundDeps } from '../../inbound/receiveInbound';
import {
  DATA_IDLE_TIMEOUT_MS,
  MAIL_SIZE_LIMIT,
  MAX_CONNECTIONS_PER_ADDRESS,
  MAX_PARSING,
  MAX_RECIPIENTS,
  MAX_SMTP_CLIENTS,
  normalizeAddress,
  OVERSIZE_DRAIN_BYTES,
  PRE_DATA_TIMEOUT_MS,
} from './addresses';
import { sourceRange } from '../widget/limits';
import { emailInbound, receiveMail } from './inbound';
import { parseSpooledMail, removeAttachmentFiles } from './parseMail';

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/** The server's limits (docs/channels/email.md "Limites"); tests shorten the timeouts. */
export interface SmtpLimits {
  connectionsPerAddress: number;
  maxClients: number;
  preDataTimeoutMs: number;
  dataIdleTimeoutMs: number;
}

const DEFAULT_LIMITS: SmtpLimits = {
  connectionsPerAddress: MAX_CONNECTIONS_PER_ADDRESS,
  maxClients: MAX_SMTP_CLIENTS,
  preDataTimeoutMs: PRE_DATA_TIMEOUT_MS,
  dataIdleTimeoutMs: DATA_IDLE_TIMEOUT_MS,
};

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/** The channel of a recipient, verified by the e-mail channel's inbound half (inbound.ts); undefined for an address that names none. */
async function channelFor(deps: InboundDeps, address: string): Promise<ChannelRecord | undefined> {
  try {
    return await emailInbound.verify(deps, { address });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return undefined;
    throw err;
  }
}

/**
 * The key connections are counted under: the IPv4 address (IPv4-mapped IPv6 too), or the /64 of an IPv6
 * one (one host usually holds a whole /64), as the widget's limits name it (sourceRange).
 */
export function clientAddressKey(address: string | undefined): string {
  const ip = (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return net.isIPv6(ip) ? sourceRange(ip) : ip;
}

/** At most `size` tasks at once; the others wait their turn. */
function limiter(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** A spool file untouched this long belongs to no mail in progress (a process that died mid-mail left it). */
const STALE_SPOOL_MS = 60 * 60 * 1000;

/** Removes the spool files a crashed process left behind; a mail still arriving keeps writing to its file, so it is never this old. */
async function removeStaleSpoolFiles(deps: InboundDeps, spoolDir: string, now = Date.now()): Promise<void> {
  for (const name of await readdir(spoolDir)) {
    const file = path.join(spoolDir, name);
    try {
      if (now - (await stat(file)).mtimeMs > STALE_SPOOL_MS) await rm(file, { force: true });
    } catch (err) {
      deps.logger.warn({ err, file }, 'smtp spool file not removed');
    }
  }
}

/**
 * The e-mail channel's inbound SMTP server (docs/channels/email.md), run by the api process on SMTP_PORT.
 * RCPT TO is accepted only for an existing forwarding address (550 otherwise), at most MAX_RECIPIENTS per
 * mail, 25 MB per mail. A mail is answered 250 only after it is stored; a failure answers 451 so the
 * sending server retries (the Message-ID keeps the retry from storing it twice).
 *
 * What one client can hold: MAX_CONNECTIONS_PER_ADDRESS connections (421 beyond), each with
 * PRE_DATA_TIMEOUT_MS to reach DATA whatever commands it sends meanwhile. A mail's content is written to a
 * spool file as it arrives, never gathered in memory; past the size limit nothing more is written, and
 * OVERSIZE_DRAIN_BYTES further on the server answers 552 and closes the connection without waiting for
 * the final dot. Only MAX_PARSING mails are parsed at once, each attachment decoded into its own spool
 * file (parseMail.ts) and stored from there, removed once the mail is handled.
 */
export async function startInboundSmtp(deps: InboundDeps, options: { port: number; host: string; limits?: Partial<SmtpLimits> }): Promise<InboundSmtp> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const spoolDir = path.join(deps.config.dataDir, 'tmp', 'smtp-spool');
  await mkdir(spoolDir, { recursive: true, mode: 0o700 });
  const parsing = limiter(MAX_PARSING);
  /** Connections counted per client address key, and each session's key and pre-DATA deadline. */
  const perAddress = new Map<string, number>();
  const sessions = new Map<string, { key: string; deadline?: NodeJS.Timeout }>();

  /** Answers `code` on the session's connection and closes it. */
  const hangUp = (sessionId: string, code: number, text: string) => {
    for (const connection of server.connections) {
      if (connection.id !== sessionId) continue;
      connection.send(code, text);
      connection.close();
    }
  };
  const armDeadline = (sessionId: string) => {
    const s = sessions.get(sessionId);
    if (!s) return;
    clearTimeout(s.deadline);
    s.deadline = setTimeout(() => hangUp(sessionId, 421, 'Timeout - closing connection'), limits.preDataTimeoutMs);
    s.deadline.unref();
  };
  const clearDeadline = (sessionId: string) => clearTimeout(sessions.get(sessionId)?.deadline);

  const server = new SMTPServer({
    name: deps.config.inboundEmailDomain,
    banner: 'Balcão',
    size: MAIL_SIZE_LIMIT,
    authOptional: true,
    disabledCommands: ['AUTH'],
    maxClients: limits.maxClients,
    socketTimeout: limits.dataIdleTimeoutMs,
    logger: false,
    onConnect(session, callback) {
      const key = clientAddressKey(session.remoteAddress);
      const count = perAddress.get(key) ?? 0;
      if (count >= limits.connectionsPerAddress) return callback(smtpError('Too many connections from your address, try again later', 421));
      perAddress.set(key, count + 1);
      sessions.set(session.id, { key });
      armDeadline(session.id);
      callback();
    },
    onClose(session) {
      const s = sessions.get(session.id);
      if (!s) return;
      clearTimeout(s.deadline);
      sessions.delete(session.id);
      const left = (perAddress.get(s.key) ?? 1) - 1;
      if (left > 0) perAddress.set(s.key, left);
      else perAddress.delete(s.key);
    },
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
      clearDeadline(session.id);
      let answered = false;
      const file = path.join(spoolDir, `${randomBytes(12).toString('hex')}.eml`);
      const removeFile = () => rm(file, { force: true }).catch((err: unknown) => deps.logger.warn({ err, file }, 'smtp spool file not removed'));
      const answer = (err?: Error) => {
        if (answered) return;
        answered = true;
        armDeadline(session.id);
        callback(err);
      };
      const spool = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      const hash = createHash('sha256');
      let bytes = 0;
      let oversize = false;
      spool.on('error', (err) => {
        stream.unpipe(spool);
        stream.resume();
        if (!oversize) answer(Object.assign(smtpError('Temporary failure, try again later', 451), { cause: err }));
      });
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (!oversize && bytes > MAIL_SIZE_LIMIT) {
          // Nothing more is kept: the spool goes, the rest of the mail is read and dropped.
          oversize = true;
          stream.unpipe(spool);
          spool.destroy();
          void removeFile();
          stream.resume();
        }
        if (oversize) {
          if (!answered && bytes > MAIL_SIZE_LIMIT + OVERSIZE_DRAIN_BYTES) {
            answered = true;
            hangUp(session.id, 552, 'Message exceeds the 25 MB limit');
          }
          return;
        }
        hash.update(chunk);
      });
      stream.on('error', (err) => {
        spool.destroy();
        void removeFile();
        answer(err);
      });
      stream.pipe(spool);
      stream.on('end', () => {
        if (oversize || stream.sizeExceeded) return answer(smtpError('Message exceeds the 25 MB limit', 552));
        spool.once('close', () => {
          if (answered) return;
          const digest = hash.digest('hex');
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const recipients = [...new Set(session.envelope.rcptTo.map((r) => normalizeAddress(r.address)))];
          parsing(async () => {
            const mail = await parseSpooledMail(file);
            try {
              for (const rcpt of recipients) {
                const channel = await channelFor(deps, rcpt);
                if (!channel) continue;
                const [outcome] = await receiveMail(deps, { channel, mail, rawDigest: digest, envelope: { mailFrom } });
                deps.logger.info({ channelId: channel.id, outcome, messageId: mail.messageId }, 'inbound mail');
              }
            } finally {
              await removeAttachmentFiles(mail).catch((err: unknown) => deps.logger.warn({ err, file }, 'smtp attachment spool files not removed'));
            }
          })
            .finally(removeFile)
            .then(
              () => answer(),
              (err: unknown) => {
                deps.logger.error({ err }, 'inbound mail not stored');
                answer(smtpError('Temporary failure, try again later', 451));
              },
            );
        });
      });
    },
  });
  server.on('error', (err) => deps.logger.warn({ err }, 'smtp server error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  await removeStaleSpoolFiles(deps, spoolDir);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions.values()) clearTimeout(s.deadline);
        server.close(() => resolve());
      }),
  };
}
