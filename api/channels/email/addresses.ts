import { createHash, randomBytes } from 'node:crypto';

/** Limits of the inbound SMTP server (docs/channels/email.md). */
export const MAIL_SIZE_LIMIT = 25 * 1024 * 1024;
export const ATTACHMENT_LIMIT = 16 * 1024 * 1024;
export const MAX_RECIPIENTS = 5;
/**
 * A mail sent without SIZE= that runs past MAIL_SIZE_LIMIT is read on (and thrown away) for this many more
 * bytes, so a sender whose mail is a little too big still gets its 552 after the final dot; past that the
 * server answers 552 at once and closes the connection.
 */
export const OVERSIZE_DRAIN_BYTES = 5 * 1024 * 1024;
/** Simultaneous connections from one client address (one IPv6 /64); the next gets 421. */
export const MAX_CONNECTIONS_PER_ADDRESS = 5;
/** Simultaneous connections in all. */
export const MAX_SMTP_CLIENTS = 50;
/**
 * Time a client has, from connecting (or from the end of its previous mail), to start DATA; commands such
 * as NOOP do not extend it. 421 and the connection is closed after it.
 */
export const PRE_DATA_TIMEOUT_MS = 30_000;
/** Idle time allowed while a mail's content is being sent. */
export const DATA_IDLE_TIMEOUT_MS = 60_000;
/** Mails parsed and stored at the same time; the others wait (their sender waits for the answer to the dot). */
export const MAX_PARSING = 2;

/** A new forwarding address: 20 random hex characters at the inbound domain. */
export function newForwardingAddress(domain: string): string {
  return `${randomBytes(10).toString('hex')}@${domain.toLowerCase()}`;
}

export function normalizeAddress(address: string | undefined | null): string {
  return (address ?? '').trim().toLowerCase();
}

export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1).toLowerCase();
}

/**
 * A mail conversation is one thread of one customer address: customer_platforms.external_id is
 * `{address}#{thread}` (the thread tag derives from the Message-ID that opened it). The address is what
 * replies go to; a domain never contains '#', so the last one separates the two.
 */
export function threadIdentity(address: string, openingMessageId: string): string {
  return `${address}#${createHash('sha256').update(openingMessageId).digest('hex').slice(0, 16)}`;
}

export function addressOfIdentity(externalId: string): string {
  const hash = externalId.lastIndexOf('#');
  return hash < 0 ? externalId : externalId.slice(0, hash);
}

/** `<id@host>` as written in headers; ids without brackets get them. */
export function normalizeMessageId(id: string | undefined | null): string | undefined {
  const v = (id ?? '').trim();
  if (!v) return undefined;
  return v.startsWith('<') ? v : `<${v}>`;
}

/** Message ids named by In-Reply-To and References, newest first, at most 50. */
export function referencedIds(inReplyTo: string | undefined, references: string | string[] | undefined): string[] {
  const refs = (Array.isArray(references) ? references : (references ?? '').split(/\s+/)).map(normalizeMessageId);
  const all = [normalizeMessageId(inReplyTo), ...refs.reverse()].filter((v): v is string => Boolean(v));
  return [...new Set(all)].slice(0, 50);
}

/** messages.external_id holds 255 characters: longer Message-IDs are stored by their hash. */
export function externalIdOfMessageId(messageId: string): string {
  return messageId.length <= 255 ? messageId : `sha256:${createHash('sha256').update(messageId).digest('hex')}`;
}
