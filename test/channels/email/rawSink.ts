import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  mailFrom: string;
  rcptTo: string[];
  /** Who logged in (AUTH PLAIN/LOGIN), when the client did. */
  user?: string;
  parsed: ParsedMail;
}

/**
 * A company's own SMTP server stand-in: a real smtp-server on loopback that requires a login when given
 * one and keeps each mail whole (parsed by mailparser, so attachments come back byte for byte).
 */
export class RawSmtpSink {
  readonly mails: SunkMail[] = [];
  /** Answers for the next mails' end of DATA, in order (e.g. a 451 before accepting): the mail goes to `refused`, not `mails`. */
  readonly refuseNext: { code: number; message: string }[] = [];
  readonly refused: SunkMail[] = [];
  port = 0;
  private readonly server: SMTPServer;

  constructor(credentials?: { user: string; pass: string }) {
    this.server = new SMTPServer({
      authOptional: !credentials,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (credentials && auth.username === credentials.user && auth.password === credentials.pass) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid login'), { responseCode: 535 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          simpleParser(Buffer.concat(chunks)).then(
            (parsed) => {
              const refusal = this.refuseNext.shift();
              (refusal ? this.refused : this.mails).push({
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                user: typeof session.user === 'string' ? session.user : undefined,
                parsed,
              });
              callback(refusal ? Object.assign(new Error(refusal.message), { responseCode: refusal.code }) : undefined);
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  async waitFor(predicate: (m: SunkMail) => boolean, timeoutMs = 10_000): Promise<SunkMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
