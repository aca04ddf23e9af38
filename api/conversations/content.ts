import type { StoredFileRef } from '../models/StoredFile';
import { MAX_MESSAGE_CHARS } from './limits';

/**
 * Message content as stored (docs/api/inbox.md): Quill Delta ops with string inserts (attributes are not
 * kept) or file entries `{file: {key, fileName, mime, size}}`. `text` is derived here, once, on write.
 */

export interface TextOp {
  insert: string;
}
export type { StoredFileRef };
export interface FileItem {
  file: StoredFileRef;
}
export type ContentItem = TextOp | FileItem;


export function isFileItem(item: ContentItem): item is FileItem {
  return 'file' in item;
}

/** Plain text for search, previews and text-only channels. */
export function textOf(content: ContentItem[]): string {
  const text = content
    .filter((i): i is TextOp => !isFileItem(i))
    .map((i) => i.insert)
    .join('')
    .trimEnd();
  const files = content.filter(isFileItem).map((i) => i.file.fileName);
  return [text, files.join(', ')].filter(Boolean).join('\n');
}

export function isMediaContent(content: ContentItem[]): boolean {
  return content.some(isFileItem);
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function fileRef(v: Record<string, unknown>): StoredFileRef | undefined {
  if (typeof v.key !== 'string' || !v.key) return undefined;
  return {
    key: v.key,
    fileName: typeof v.fileName === 'string' ? v.fileName : v.key,
    mime: typeof v.mime === 'string' ? v.mime : 'application/octet-stream',
    size: typeof v.size === 'number' && Number.isFinite(v.size) ? v.size : 0,
  };
}

/**
 * What channel adapters hand over, reduced to the stored shape: string inserts and file entries (bare
 * `{key, ...}` entries are accepted too). Anything else is dropped rather than stored, and the text is
 * capped like an agent's message.
 */
export function normalizeContent(raw: unknown[]): ContentItem[] {
  const out: ContentItem[] = [];
  let chars = 0;
  for (const item of raw) {
    const rec = asRecord(item);
    if (!rec) continue;
    if (typeof rec.insert === 'string') {
      const insert = rec.insert.slice(0, Math.max(0, MAX_MESSAGE_CHARS - chars));
      chars += insert.length;
      if (insert) out.push({ insert });
      continue;
    }
    const ref = fileRef(asRecord(rec.file) ?? rec);
    if (ref) out.push({ file: ref });
  }
  return out;
}
