import type { ChannelDeps } from '../../api/channels/adapter';
import { readStoredFile } from '../../api/channels/outbound/storedFile';
import type { CloudLine } from '../../api/channels/whatsapp/cloudLine';
import { uploadGraphMedia } from '../../api/channels/whatsapp/client';
import { campaignMediaKind } from '../../api/campaigns/schema';
import type { ContentItem, StoredFileRef } from '../../api/conversations/content';

/**
 * A campaign's attachment on the wire (docs/campaigns.md "Attachment").
 *
 * QR lines: the message becomes the inbox's content, text then file entry, and goes through the same
 * outbound code as an agent's message (api/channels/whatsapp/qr/sender.ts): an image, video or document
 * carries the text as its caption; an audio goes as a voice note with the text after it.
 *
 * Cloud lines: the file is the template's media header parameter (Meta's "Send media-based message
 * template": `components: [{type: 'header', parameters: [{type: 'image', image: {id}}]}, ...]`), uploaded
 * once to the line's media endpoint and sent by id, as Meta recommends over `link`.
 */

/** The content a QR line sends for one number: the filled text, then the file (its caption where WhatsApp takes one). */
export function campaignQrContent(text: string, mediaFile: StoredFileRef | null | undefined): ContentItem[] {
  const content: ContentItem[] = [{ insert: `${text}\n` }];
  if (mediaFile) content.push({ file: mediaFile });
  return content;
}

/** Meta keeps an uploaded media id 30 days; a process reuses its upload for a day. */
const MEDIA_ID_TTL_MS = 24 * 3600_000;
const MAX_CACHED = 200;
/** Uploads by line and file, shared by the sends of every burst in this process (concurrent sends wait on one upload). */
const uploads = new Map<string, { at: number; id: Promise<string> }>();

/** The media id of the campaign's file on the line, uploading it once (a failed upload is not kept). */
async function mediaIdOf(deps: ChannelDeps, line: CloudLine, file: StoredFileRef): Promise<string> {
  const cacheKey = `${line.phoneNumberId}:${file.key}`;
  const hit = uploads.get(cacheKey);
  if (hit && Date.now() - hit.at < MEDIA_ID_TTL_MS) return hit.id;
  const id = (async () => uploadGraphMedia(deps.config, line, { bytes: await readStoredFile(deps, file.key), mime: file.mime.split(';')[0]!.trim(), fileName: file.fileName }))();
  uploads.set(cacheKey, { at: Date.now(), id });
  if (uploads.size > MAX_CACHED) uploads.delete(uploads.keys().next().value!);
  id.catch(() => {
    if (uploads.get(cacheKey)?.id === id) uploads.delete(cacheKey);
  });
  return id;
}

/**
 * The header parameter of a Cloud template send carrying the campaign's file (`{type: 'document', document:
 * {id, filename}}` and so on), or null without a file. The campaign's creation checked the kind against the
 * template's header format.
 */
export async function cloudHeaderParameter(deps: ChannelDeps, line: CloudLine, file: StoredFileRef | null | undefined): Promise<Record<string, unknown> | null> {
  if (!file) return null;
  const kind = campaignMediaKind(file.mime);
  if (kind !== 'image' && kind !== 'video' && kind !== 'document') return null;
  const id = await mediaIdOf(deps, line, file);
  return { type: kind, [kind]: { id, ...(kind === 'document' ? { filename: file.fileName } : {}) } };
}

/** Forgets the uploads (tests: a fresh fake Graph has none of the ids). */
export function forgetCampaignMediaUploads(): void {
  uploads.clear();
}
