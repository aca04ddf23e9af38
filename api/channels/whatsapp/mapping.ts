import type { ContentItem, FileItem } from '../../conversations/content';

/**
 * Delta ↔ WhatsApp message mapping shared by both transports. WhatsApp text is plain (its own *bold*
 * markup is left as typed); files go as the media kind their type names.
 */
export function deltaToWhatsappText(content: unknown[]): string {
  return content
    .map((i) => (i && typeof i === 'object' && typeof (i as { insert?: unknown }).insert === 'string' ? (i as { insert: string }).insert : ''))
    .join('')
    .trimEnd();
}

export function filesOf(content: unknown[]): FileItem['file'][] {
  return content.filter((i): i is FileItem => !!i && typeof i === 'object' && 'file' in i).map((i) => i.file);
}

export type WhatsappMediaKind = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** The media kind WhatsApp sends a stored file as; a recorded voice note (webm/ogg audio) goes as audio. */
export function mediaKindOf(mime: string): WhatsappMediaKind {
  if (mime === 'image/webp') return 'sticker';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

/** A shared location as text with a map link (the inbox has no map item). */
export function locationText(loc: { latitude: number; longitude: number; name?: string; address?: string }): string {
  const label = [loc.name, loc.address].filter(Boolean).join(' — ');
  return `📍 ${label ? `${label}\n` : ''}https://maps.google.com/?q=${loc.latitude},${loc.longitude}`;
}

/** Shared contacts as text (previews, search, text-only views): the name, then each phone and e-mail. */
export function contactsText(contacts: { name: string | null; phones: { phone: string }[]; emails: string[]; org: string | null }[]): string {
  return contacts
    .map((c) => [`👤 ${c.name ?? 'Contato'}${c.org ? ` (${c.org})` : ''}`, ...c.phones.map((p) => `📞 ${p.phone}`), ...c.emails.map((e) => `✉️ ${e}`)].join('\n'))
    .join('\n\n');
}

export const MEDIA_TOO_LARGE_NOTE = 'Mídia não recebida: o arquivo tem mais de 16 MB.';
export const MEDIA_UNAVAILABLE_NOTE = 'Mídia não recebida: o WhatsApp não a entregou.';

export function textItem(text: string): ContentItem {
  return { insert: text.endsWith('\n') ? text : `${text}\n` };
}
