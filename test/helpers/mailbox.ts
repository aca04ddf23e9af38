import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

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

/** A real SMTP server on loopback that keeps every mail it receives (nodemailer → smtp-server). */
export class Mailbox {
  readonly mails: CapturedMail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = chunks.toString() === '' ? '' : Buffer.concat(chunks).toString('utf8');
        const decoded = decodeQuotedPrintable(raw);
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';
        const link = /https?:\/\/[^\s"'<>]+/.exec(decoded)?.[0]?.replace(/&amp;/g, '&');
        this.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decoded,
          subject,
          link,
        });
        callback();
      });
    },
  });
  port = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits for the next mail to `to` (case-insensitive) that arrives after `since` mails were seen. */
  async waitFor(to: string, predicate: (m: CapturedMail) => boolean = () => true, timeoutMs = 20_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && predicate(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
