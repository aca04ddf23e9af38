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
