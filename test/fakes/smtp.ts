import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

/**
 * The SMTP fakes: real SMTP servers (smtp-server, RFC 5321) on a free loopback port that keep what they
 * receive. `Mailbox` stands for the mail relay at SMTP_URL (our own mails: invites, resets, exports; the
 * e-mail channel's replies) and `RawSmtpSink` for a company's own SMTP server (the e-mail channel's
 * outbound settings: a login, refusals, mails kept whole).
 */
abstract class LoopbackSmtp<M> {
  readonly mails: M[] = [];
  port = 0;
  private readonly server: SMTPServer;

  protected constructor(options: Omit<SMTPServerOptions, 'onData'>) {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      ...options,
      onData: (stream, session, callback) => {
        readWhole(stream).then((raw) => this.receive(raw, session)).then(
          (refusal) => callback(refusal ? Object.assign(new Error(refusal.message), { responseCode: refusal.code }) : undefined),
          (err: Error) => callback(err),
        );
      },
    });
  }

  /** Keeps one mail's whole DATA; answers the refusal its end of DATA gets, if any. */
  protected abstract receive(raw: Buffer, session: SMTPServerSession): Promise<{ code: number; message: string } | undefined>;

  /** Listens; answers the server's smtp:// URL (for SMTP_URL). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  protected async waitUntil(predicate: (m: M) => boolean, timeoutMs: number, what: string): Promise<M> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

function readWhole(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

const envelopeOf = (session: SMTPServerSession) => ({
  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
  to: session.envelope.rcptTo.map((r) => r.address),
});

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The first http(s) link in the body, decoded from quoted-printable. */
  link?: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The relay at SMTP_URL: keeps every mail it receives (nodemailer → smtp-server), its body decoded from quoted-printable. */
export class Mailbox extends LoopbackSmtp<CapturedMail> {
  constructor() {
    super({ authOptional: true });
  }

  protected async receive(data: Buffer, session: SMTPServerSession): Promise<undefined> {
    const raw = data.toString('utf8');
    const decoded = decodeQuotedPrintable(raw);
    const { from, to } = envelopeOf(session);
    this.mails.push({
      from,
      to,
      raw: decoded,
      subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? '',
      link: /https?:\/\/[^\s"'<>]+/.exec(decoded)?.[0]?.replace(/&amp;/g, '&'),
    });
    return undefined;
  }

  /** Waits for a mail to `to` (case-insensitive) that matches `predicate`. */
  waitFor(to: string, predicate: (m: CapturedMail) => boolean = () => true, timeoutMs = 20_000): Promise<CapturedMail> {
    return this.waitUntil((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && predicate(m), timeoutMs, `mail to ${to}`);
  }
}

export interface SunkMail {
  mailFrom: string;
  rcptTo: string[];
  /** Who logged in (AUTH PLAIN/LOGIN), when the client did. */
  user?: string;
  parsed: ParsedMail;
}

/**
 * A company's own SMTP server stand-in: requires a login when given one and keeps each mail whole (parsed by
 * mailparser, so attachments come back byte for byte).
 */
export class RawSmtpSink extends LoopbackSmtp<SunkMail> {
  /** Answers for the next mails' end of DATA, in order (e.g. a 451 before accepting): the mail goes to `refused`, not `mails`. */
  readonly refuseNext: { code: number; message: string }[] = [];
  readonly refused: SunkMail[] = [];

  constructor(credentials?: { user: string; pass: string }) {
    super({
      authOptional: !credentials,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (credentials && auth.username === credentials.user && auth.password === credentials.pass) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid login'), { responseCode: 535 }));
      },
    });
  }

  protected async receive(raw: Buffer, session: SMTPServerSession): Promise<{ code: number; message: string } | undefined> {
    const parsed = await simpleParser(raw);
    const refusal = this.refuseNext.shift();
    const { from, to } = envelopeOf(session);
    (refusal ? this.refused : this.mails).push({ mailFrom: from, rcptTo: to, user: typeof session.user === 'string' ? session.user : undefined, parsed });
    return refusal;
  }

  waitFor(predicate: (m: SunkMail) => boolean, timeoutMs = 10_000): Promise<SunkMail> {
    return this.waitUntil(predicate, timeoutMs, 'matching mail');
  }
}
