/**
 * What is WhatsApp's own in the Delta ↔ message mapping both transports share: the media kind a file goes
 * as. The text itself is plain (api/channels/content.ts); the names below stay importable from here.
 */
export { deltaToPlainText as deltaToWhatsappText, filesOf } from '../content';

export type WhatsappMediaKind = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** The media kind WhatsApp sends a stored file as; a recorded voice note (webm/ogg audio) goes as audio. */
export function mediaKindOf(mime: string): WhatsappMediaKind {
  if (mime === 'image/webp') return 'sticker';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

export const MEDIA_UNAVAILABLE_NOTE = 'Mídia não recebida: o WhatsApp não a entregou.';
