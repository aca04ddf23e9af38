import type { ContentItem, FileEntry, Message } from '../types';

/** The file entries of a message content (`{file: {...}}`, or the bare entry older rows may hold). */
export function filesOf(content: ContentItem[] | null | undefined): FileEntry[] {
  const files: FileEntry[] = [];
  for (const item of Array.isArray(content) ? content : []) {
    if (item && typeof item === 'object') {
      if ('file' in item && item.file && typeof item.file === 'object') files.push(item.file);
      else if ('key' in item && 'fileName' in item) files.push(item as FileEntry);
    }
  }
  return files;
}

/** Plain text of Quill Delta ops (attributes and embeds ignored), without the closing newline. */
export function textOf(content: ContentItem[] | null | undefined, fallback = ''): string {
  let text = '';
  let sawInsert = false;
  for (const item of Array.isArray(content) ? content : []) {
    if (item && typeof item === 'object' && 'insert' in item && typeof item.insert === 'string') {
      text += item.insert;
      sawInsert = true;
    }
  }
  return (sawInsert ? text : fallback).replace(/\n+$/, '');
}

export const messageText = (m: Pick<Message, 'content' | 'text'>) => textOf(m.content, m.text ?? '');

/** Only addresses our CSP and users can trust: same-origin paths and http(s). */
export function safeUrl(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored file's signed URL is absolute (PUBLIC_URL); served from our own origin it is the same file, and
 * a same-origin path is what the CSP (img-src/media-src 'self') lets the app load whatever host it is on.
 */
export function fileHref(url: string | undefined | null): string | undefined {
  const safe = safeUrl(url);
  if (!safe || safe.startsWith('/')) return safe;
  const parsed = new URL(safe);
  return parsed.pathname.startsWith('/api/assets/download/') ? `${parsed.pathname}${parsed.search}` : safe;
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = '.,;:!?]}\'"';

/** Sentence punctuation after an address is not part of it; a ')' is, when it closes a '(' of the address. */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0) {
    const ch = url[end - 1]!;
    if (ch === ')') {
      const body = url.slice(0, end);
      if (body.split(')').length > body.split('(').length) {
        end--;
        continue;
      }
      break;
    }
    if (!TRAILING.includes(ch)) break;
    end--;
  }
  return url.slice(0, end);
}

/** SPEC §4: URL-like text is made clickable (http and https only). Parts, never HTML. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_RE)) {
    const url = trimUrl(match[0]);
    const start = match.index;
    const href = safeUrl(url);
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push(href ? { kind: 'link', text: url, href } : { kind: 'text', text: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

export interface SharedContact {
  name: string | null;
  phones: { phone: string; waId: string | null }[];
  emails: string[];
  org: string | null;
}
export interface SharedLocation {
  latitude: number;
  longitude: number;
  name: string | null;
  address: string | null;
}
export interface ButtonReply {
  kind: string;
  id: string | null;
  description: string | null;
}

/**
 * What a channel stored beside a message for the inbox to show (WhatsApp Cloud, docs/channels/whatsapp.md):
 * the customer's reaction, a button or list reply's payload, shared contacts, a shared location. Read
 * defensively: the row is the channel's data, anything not of the expected shape is ignored.
 */
export function messageExtras(m: Pick<Message, 'Call'>): { reaction?: string; buttonReply?: ButtonReply; contacts?: SharedContact[]; location?: SharedLocation } {
  const extra = (m.Call?.extraData ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const out: ReturnType<typeof messageExtras> = {};
  const reaction = extra.reaction as { emoji?: unknown } | undefined;
  if (reaction && str(reaction.emoji)) out.reaction = str(reaction.emoji)!;
  const reply = extra.buttonReply as Record<string, unknown> | undefined;
  if (reply && typeof reply === 'object') out.buttonReply = { kind: str(reply.kind) ?? 'button', id: str(reply.id), description: str(reply.description) };
  if (Array.isArray(extra.contacts)) {
    out.contacts = (extra.contacts as Record<string, unknown>[])
      .filter((c) => c && typeof c === 'object')
      .map((c) => ({
        name: str(c.name),
        phones: (Array.isArray(c.phones) ? (c.phones as Record<string, unknown>[]) : []).filter((p) => p && str(p.phone)).map((p) => ({ phone: str(p.phone)!, waId: str(p.waId) })),
        emails: (Array.isArray(c.emails) ? c.emails : []).filter((e): e is string => typeof e === 'string' && e.length > 0),
        org: str(c.org),
      }));
  }
  const loc = extra.location as Record<string, unknown> | undefined;
  if (loc && typeof loc === 'object' && Number.isFinite(loc.latitude) && Number.isFinite(loc.longitude)) {
    out.location = { latitude: loc.latitude as number, longitude: loc.longitude as number, name: str(loc.name), address: str(loc.address) };
  }
  return out;
}

/** A map of the point (https, opened in a new tab). */
export const mapUrl = (l: Pick<SharedLocation, 'latitude' | 'longitude'>) => `https://www.google.com/maps/search/?api=1&query=${l.latitude},${l.longitude}`;

/** WhatsApp's chat link for a shared contact's WhatsApp id (digits only). */
export const whatsappChatUrl = (waId: string | null) => (waId && /^\d{8,15}$/.test(waId) ? `https://wa.me/${waId}` : undefined);
