import dns from 'node:dns';
import net from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config';
import { blockedReason } from '../../http/guardedFetch';
import { openSecret, sealSecret } from '../secretBox';
import { companySmtpLoopbackAllowed } from './testing';

/** A company's own SMTP server, parsed from `smtp(s)://user:password@host:port`. */
export interface CompanySmtp {
  hostname: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

export class CompanySmtpError extends Error {
  /** A lookup that failed may work later; a refused address or a malformed URL will not. */
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

export function parseSmtpUrl(input: string): CompanySmtp {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CompanySmtpError('URL do servidor SMTP inválida.');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new CompanySmtpError('A URL do servidor SMTP deve começar com smtp:// ou smtps://.');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (!hostname) throw new CompanySmtpError('URL do servidor SMTP inválida.');
  const secure = url.protocol === 'smtps:';
  return {
    hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { pass: decodeURIComponent(url.password) } : {}),
  };
}

/**
 * The address to connect to: the host resolved once, every answer public (no loopback, private,
 * link-local or CGNAT address: a company's SMTP URL is user input, like a webhook URL, DESIGN §3). The
 * connection then goes to that vetted address with the name kept for TLS, so a second lookup cannot
 * point it elsewhere.
 */
export async function vetSmtpHost(hostname: string): Promise<string> {
  const allowLoopback = companySmtpLoopbackAllowed();
  let addresses: { address: string }[];
  if (net.isIP(hostname)) addresses = [{ address: hostname }];
  else {
    try {
      addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    } catch {
      throw new CompanySmtpError(`Não foi possível encontrar o servidor SMTP ${hostname}.`, true);
    }
  }
  if (!addresses.length) throw new CompanySmtpError(`Não foi possível encontrar o servidor SMTP ${hostname}.`);
  for (const a of addresses) {
    if (blockedReason(a.address, allowLoopback)) throw new CompanySmtpError(`O servidor SMTP ${hostname} não tem um endereço público.`);
  }
  return addresses[0].address;
}

/** A transport to the company's server at its vetted address; closed by the caller after one send. */
export async function companyTransport(smtp: CompanySmtp): Promise<Transporter> {
  const address = await vetSmtpHost(smtp.hostname);
  return nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
    // The certificate is checked against the name the company gave, not the address we connect to.
    tls: { servername: net.isIP(smtp.hostname) ? undefined : smtp.hostname },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}

type Keyed = Pick<Config, 'channelSecretsKey'>;

export const sealSmtpUrl = (config: Keyed, url: string) => sealSecret(config, url);

/** The channel's own SMTP (config.smtpUrlSealed), or undefined when it sends through the product's SMTP_URL. */
export function channelSmtp(config: Keyed, channelConfig: Record<string, unknown>): CompanySmtp | undefined {
  const sealed = channelConfig.smtpUrlSealed;
  return typeof sealed === 'string' && sealed ? parseSmtpUrl(openSecret(config, sealed)) : undefined;
}
