import type { ContentItem, FileItem } from '../conversations/content';

/**
 * Delta ↔ plain text for the channels whose messages are plain text with files beside it (WhatsApp Cloud
 * and QR, Telegram, Messenger, Instagram): what an agent wrote goes out as its text (a provider's own
 * markup, such as WhatsApp's *bold*, is left as typed) and its files; what a customer sent comes in as text
 * items, with locations and shared contacts written out as text.
 */
export function deltaToPlainText(content: unknown[]): string {
  return content
    .map((i) => (i && typeof i === 'object' && typeof (i as { insert?: unknown }).insert === 'string' ? (i as { insert: string }).insert : ''))
    .join('')
    .trimEnd();
}

/** The files of a Delta, in order. */
export function filesOf(content: unknown[]): FileItem['file'][] {
  return content.filter((i): i is FileItem => !!i && typeof i === 'object' && 'file' in i).map((i) => i.file);
}

/** A text item of a Delta (one line: ends with a newline). */
export function textItem(text: string): ContentItem {
  return { insert: text.endsWith('\n') ? text : `${text}\n` };
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
