import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from '../logger';
import { newStorageKey } from '../storage/keys';
import type { FileStorage } from '../storage/storage';
import { MAX_VOICE_NOTE_BYTES, VoiceNoteRemuxError, webmOpusToOgg } from './voiceNote';

export interface StoredUpload {
  key: string;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
}

/** What file-type calls any WebM file, audio-only ones included (it reads only the DocType). */
const WEBM_MIMES = new Set(['video/webm', 'audio/webm']);

/**
 * An operator's recorded voice note (the composer's MediaRecorder WebM/Opus, `record.webm`) becomes Ogg/Opus
 * right after it is stored, so every channel gets the one format phones show as a voice note (docs/channels/
 * telegram.md, whatsapp.md). The Ogg is stored under a new key and the WebM removed; a WebM that is not one
 * Opus audio track (a video, say), or that cannot be remuxed, is kept as it came, the failure logged.
 * Returns `upload` unchanged or the Ogg's facts.
 */
export async function remuxRecordedVoiceNote(storage: FileStorage, upload: StoredUpload, logger?: Logger): Promise<StoredUpload> {
  if (!WEBM_MIMES.has(upload.mime) || upload.size > MAX_VOICE_NOTE_BYTES) return upload;
  const object = await storage.get(upload.key);
  if (!object) return upload;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  let ogg: Buffer;
  try {
    ogg = webmOpusToOgg(Buffer.concat(chunks));
  } catch (err) {
    // A video or any WebM that is not a plain Opus recording stays what it is.
    if (!(err instanceof VoiceNoteRemuxError) || err.code !== 'not_single_opus_track') {
      logger?.warn({ err, key: upload.key }, 'voice note kept as WebM: remux to Ogg/Opus failed');
    }
    return upload;
  }
  const key = newStorageKey();
  const { size } = await storage.put(key, Readable.from([ogg]));
  await storage.delete(upload.key).catch((err: unknown) => logger?.warn({ err, key: upload.key }, 'remuxed WebM not removed'));
  return {
    key,
    fileName: oggName(upload.fileName),
    mime: 'audio/ogg',
    size,
    sha256: createHash('sha256').update(ogg).digest('hex'),
  };
}

/** `record.webm` → `record.ogg`; a name without the extension gets `.ogg` added. */
export function oggName(fileName: string): string {
  return /\.webm$/i.test(fileName) ? fileName.replace(/\.webm$/i, '.ogg') : `${fileName}.ogg`;
}
