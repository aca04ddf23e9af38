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
        await transport.sendMail({ from: MAIL_FROM, to: m.to, subject: m.subject, text: m.text, html: m.html });
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
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.json`);
      await writeFile(file, JSON.stringify({ from: MAIL_FROM, ...m }, null, 2), { mode: 0o600, flag: 'wx' });
      logger.info({ to: m.to, subject: m.subject, link: m.link, file }, 'mail written to outbox');
    },
  };
}
