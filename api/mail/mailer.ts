import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The action link in the mail, logged when mail goes to the outbox. */
  link?: string;
  /** Files attached to the mail (a report export); the outbox writes each beside the mail's .json. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAIL_FROM = 'Balcão <nao-responda@balcao.local>';

/** SMTP_URL set: real SMTP through nodemailer. Unset: each mail is written to DATA_DIR/outbox and its link logged. */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({
          from: MAIL_FROM,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })) } : {}),
        });
      },
    };
  }
  // Outbox mails carry reset and invitation links: readable by this user only (issue 10 item 14).
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(m) {
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      // mkdir leaves an existing directory as it was (an outbox written by an older version: 0755).
      await chmod(outbox, 0o700);
      const base = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`);
      const file = `${base}.json`;
      const { attachments, ...mail } = m;
      const files: string[] = [];
      for (const a of attachments ?? []) {
        // The attachment's own name is not trusted as a path: only its extension is kept.
        const saved = `${base}-${files.length + 1}${path.extname(a.filename).replace(/[^.a-z0-9]/gi, '')}`;
        await writeFile(saved, a.content, { mode: 0o600, flag: 'wx' });
        files.push(saved);
      }
      await writeFile(file, JSON.stringify({ from: MAIL_FROM, ...mail, ...(files.length ? { attachments: (attachments ?? []).map((a, i) => ({ filename: a.filename, contentType: a.contentType, file: files[i] })) } : {}) }, null, 2), { mode: 0o600, flag: 'wx' });
      logger.info({ to: m.to, subject: m.subject, link: m.link, file }, 'mail written to outbox');
    },
  };
}
