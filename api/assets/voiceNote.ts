/**
 * Voice notes recorded in the inbox (Chromium's MediaRecorder only records `audio/webm;codecs=opus`) are
 * remuxed to Ogg/Opus, the one container WhatsApp shows as a voice note and Telegram's sendVoice accepts
 * for Opus. The Opus packets are copied as they are (no re-encoding): WebM/Matroska EBML in, Ogg pages
 * (RFC 3533, RFC 7845) out. See docs/channels/telegram.md and whatsapp.md, "Notas de voz".
 */

/** SPEC §9 file limit: nothing bigger is remuxed. */
export const MAX_VOICE_NOTE_BYTES = 16 * 1024 * 1024;
/** At most this many packets on one data page (Opus 20 ms packets: about one second a page). */
export const MAX_PACKETS_PER_PAGE = 50;
/** Largest Opus packet (RFC 6716: 48 frames of 1275 bytes plus framing) and what one Ogg page can carry whole. */
const MAX_PACKET_BYTES = 255 * 255 - 1;

export type VoiceNoteRemuxErrorCode = 'too_large' | 'not_webm' | 'malformed' | 'not_single_opus_track' | 'empty';

/** Why a file could not be remuxed; the caller keeps the original file. */
export class VoiceNoteRemuxError extends Error {
  constructor(
    readonly code: VoiceNoteRemuxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VoiceNoteRemuxError';
  }
}

const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  CodecDelay: 0x56aa,
  Audio: 0xe1,
  Channels: 0x9f,
  Cluster: 0x1f43b675,
  BlockGroup: 0xa0,
  Block: 0xa1,
  SimpleBlock: 0xa3,
} as const;

/** Master elements whose children are read in place (the rest is skipped by size). */
const DESCEND = new Set<number>([ID.Segment, ID.Tracks, ID.TrackEntry, ID.Audio, ID.Cluster, ID.BlockGroup]);
/** The only elements MediaRecorder writes with an unknown size. */
const UNKNOWN_SIZE_OK = new Set<number>([ID.Segment, ID.Cluster]);

interface Track {
  number?: number;
  type?: number;
  codec?: string;
  codecPrivate?: Buffer;
  codecDelayNs?: number;
  channels?: number;
}

interface Vint {
  value: number;
  length: number;
  unknown: boolean;
}

function readVint(bytes: Buffer, pos: number, keepMarker: boolean): Vint {
  if (pos >= bytes.length) throw malformed();
  const first = bytes[pos]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || (keepMarker && length > 4) || pos + length > bytes.length) throw malformed();
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = bytes[pos + i]!;
    if (b !== 0xff) allOnes = false;
    value = value * 256 + b;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function readUint(bytes: Buffer): number {
  let value = 0;
  for (const b of bytes) value = value * 256 + b;
  return value;
}

function malformed(): VoiceNoteRemuxError {
  return new VoiceNoteRemuxError('malformed', 'O arquivo WebM está corrompido ou incompleto.');
}

/** Opus samples at 48 kHz in one packet, from its TOC byte (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Buffer): number {
  if (packet.length === 0) return 0;
  const toc = packet[0]!;
  const config = toc >> 3;
  let frame: number;
  if (config < 12) frame = [480, 960, 1920, 2880][config & 3]!;
  else if (config < 16) frame = [480, 960][config & 1]!;
  else frame = [120, 240, 480, 960][config & 3]!;
  const code = toc & 3;
  let frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  if (code === 3 && packet.length < 2) frames = 0;
  return frame * frames;
}

interface Parsed {
  track: Track;
  packets: Buffer[];
}

function parseWebm(bytes: Buffer): Parsed {
  if (bytes.length < 4 || bytes.readUInt32BE(0) !== ID.EBML) {
    throw new VoiceNoteRemuxError('not_webm', 'O arquivo não é um áudio WebM.');
  }
  const tracks: Track[] = [];
  const blocks: { track: number; frames: Buffer[] }[] = [];
  let docType: string | undefined;
  let current: Track | undefined;
  let pos = 0;
  while (pos < bytes.length) {
    const id = readVint(bytes, pos, true);
    const size = readVint(bytes, pos + id.length, false);
    const start = pos + id.length + size.length;
    if (size.unknown && !UNKNOWN_SIZE_OK.has(id.value)) throw malformed();
    // A file cut short (a recording stopped mid-write) ends at its last whole element.
    const end = size.unknown ? bytes.length : start + size.value;
    if (end > bytes.length) {
      if (DESCEND.has(id.value)) {
        pos = start;
        continue;
      }
      break;
    }
    if (id.value === ID.EBML) {
      // The header's children: only DocType matters.
      let p = start;
      while (p < end) {
        const cid = readVint(bytes, p, true);
        const csize = readVint(bytes, p + cid.length, false);
        const cstart = p + cid.length + csize.length;
        if (csize.unknown || cstart + csize.value > end) throw malformed();
        if (cid.value === ID.DocType) docType = bytes.subarray(cstart, cstart + csize.value).toString('latin1').replace(/\0+$/, '');
        p = cstart + csize.value;
      }
      pos = end;
      continue;
    }
    if (DESCEND.has(id.value)) {
      if (id.value === ID.TrackEntry) {
        current = {};
        tracks.push(current);
      }
      pos = start;
      continue;
    }
    const data = bytes.subarray(start, end);
    switch (id.value) {
      case ID.TrackNumber:
        if (current) current.number = readUint(data);
        break;
      case ID.TrackType:
        if (current) current.type = readUint(data);
        break;
      case ID.CodecID:
        if (current) current.codec = data.toString('latin1').replace(/\0+$/, '');
        break;
      case ID.CodecPrivate:
        if (current) current.codecPrivate = Buffer.from(data);
        break;
      case ID.CodecDelay:
        if (current) current.codecDelayNs = readUint(data);
        break;
      case ID.Channels:
        if (current) current.channels = readUint(data);
        break;
      case ID.SimpleBlock:
      case ID.Block:
        blocks.push(readBlock(data));
        break;
      default:
        break;
    }
    pos = end;
  }
  if (docType !== 'webm' && docType !== 'matroska') {
    throw new VoiceNoteRemuxError('not_webm', 'O arquivo não é um áudio WebM.');
  }
  const [track] = tracks;
  if (tracks.length !== 1 || track?.codec !== 'A_OPUS' || (track.type !== undefined && track.type !== 2) || track.number === undefined) {
    throw new VoiceNoteRemuxError('not_single_opus_track', 'O áudio precisa ter uma única faixa Opus.');
  }
  const packets = blocks.filter((b) => b.track === track.number).flatMap((b) => b.frames);
  if (!packets.length) throw new VoiceNoteRemuxError('empty', 'A gravação não tem áudio.');
  return { track, packets };
}

/** A (Simple)Block's frames: one, or several with Xiph, fixed-size or EBML lacing (Matroska spec, "Block Lacing"). */
function readBlock(data: Buffer): { track: number; frames: Buffer[] } {
  const track = readVint(data, 0, false);
  let pos = track.length + 3;
  if (data.length < pos) throw malformed();
  const lacing = (data[track.length + 2]! >> 1) & 3;
  let frames: Buffer[];
  if (lacing === 0) {
    frames = [data.subarray(pos)];
  } else {
    if (pos >= data.length) throw malformed();
    const count = data[pos++]! + 1;
    const sizes: number[] = [];
    if (lacing === 1) {
      // Xiph: each size but the last as a run of 255s ended by a byte under 255.
      for (let i = 0; i < count - 1; i++) {
        let size = 0;
        for (;;) {
          if (pos >= data.length) throw malformed();
          const b = data[pos++]!;
          size += b;
          if (b < 255) break;
        }
        sizes.push(size);
      }
    } else if (lacing === 3) {
      // EBML: the first size as a vint, then signed differences to the previous one.
      const first = readVint(data, pos, false);
      pos += first.length;
      sizes.push(first.value);
      for (let i = 1; i < count - 1; i++) {
        const diff = readVint(data, pos, false);
        pos += diff.length;
        const size = sizes[i - 1]! + diff.value - (2 ** (7 * diff.length - 1) - 1);
        if (size < 0) throw malformed();
        sizes.push(size);
      }
    } else {
      // Fixed: the rest split in `count` equal frames.
      if ((data.length - pos) % count !== 0) throw malformed();
      for (let i = 0; i < count - 1; i++) sizes.push((data.length - pos) / count);
    }
    const known = sizes.reduce((a, b) => a + b, 0);
    if (pos + known > data.length) throw malformed();
    sizes.push(data.length - pos - known);
    frames = sizes.map((size) => {
      const frame = data.subarray(pos, pos + size);
      pos += size;
      return frame;
    });
  }
  if (frames.some((f) => f.length > MAX_PACKET_BYTES)) throw malformed();
  return { track: track.value, frames: frames.map((f) => Buffer.from(f)) };
}

function opusHead(track: Track): Buffer {
  const priv = track.codecPrivate;
  if (priv && priv.length >= 19 && priv.subarray(0, 8).toString('latin1') === 'OpusHead') {
    if (priv[18] !== 0 && priv.length < 21) throw malformed();
    return priv;
  }
  if (priv && priv.length) throw new VoiceNoteRemuxError('malformed', 'O cabeçalho Opus do arquivo WebM é inválido.');
  const channels = track.channels ?? 1;
  if (channels < 1 || channels > 2) throw new VoiceNoteRemuxError('not_single_opus_track', 'O áudio precisa ter uma única faixa Opus mono ou estéreo.');
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = channels;
  head.writeUInt16LE(Math.min(0xffff, Math.round(((track.codecDelayNs ?? 0) * 48_000) / 1e9)), 10);
  head.writeUInt32LE(48_000, 12);
  head.writeInt16LE(0, 16);
  head[18] = 0;
  return head;
}

function opusTags(): Buffer {
  const vendor = Buffer.from('Balcao voice note remux', 'latin1');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  return tags;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04C11DB7, initial 0, not reflected, no final xor (RFC 3533 §6). */
export function oggCrc32(bytes: Buffer): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc >>> 0;
}

function oggPage(packets: Buffer[], flags: number, granule: bigint, serial: number, sequence: number): Buffer {
  const lacing: number[] = [];
  for (const p of packets) {
    for (let left = p.length; ; left -= 255) {
      if (left < 255) {
        lacing.push(left);
        break;
      }
      lacing.push(255);
    }
  }
  if (lacing.length > 255) throw new Error('ogg page over 255 segments');
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[4] = 0;
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt32LE(0, 22);
  header[26] = lacing.length;
  lacing.forEach((l, i) => (header[27 + i] = l));
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc32(page), 22);
  return page;
}

function segmentsOf(packet: Buffer): number {
  return Math.floor(packet.length / 255) + 1;
}

/**
 * Remuxes a WebM (Matroska) file with one Opus audio track into an Ogg/Opus stream: page 0 the OpusHead
 * (the track's CodecPrivate, or built from its channels and CodecDelay), page 1 the OpusTags, then the
 * packets as they were, with granule positions counted in 48 kHz samples from each packet's TOC byte
 * (the pre-skip included, RFC 7845 §4) and EOS on the last page. Throws VoiceNoteRemuxError for anything
 * else (not WebM, no or several tracks, not Opus, corrupt, over 16 MB). Laced blocks give their frames in order.
 */
export function webmOpusToOgg(bytes: Buffer, serial = oggCrc32(bytes.subarray(0, 4096))): Buffer {
  if (bytes.length > MAX_VOICE_NOTE_BYTES) throw new VoiceNoteRemuxError('too_large', 'O arquivo excede o limite de 16 MB.');
  const { track, packets } = parseWebm(bytes);
  const pages: Buffer[] = [oggPage([opusHead(track)], 0x02, 0n, serial, 0), oggPage([opusTags()], 0, 0n, serial, 1)];
  let granule = 0n;
  let batch: Buffer[] = [];
  let segments = 0;
  const flush = (last: boolean) => {
    pages.push(oggPage(batch, last ? 0x04 : 0, granule, serial, pages.length));
    batch = [];
    segments = 0;
  };
  const audio = packets.filter((p) => p.length > 0);
  if (!audio.length) throw new VoiceNoteRemuxError('empty', 'A gravação não tem áudio.');
  audio.forEach((packet, i) => {
    if (batch.length && (batch.length >= MAX_PACKETS_PER_PAGE || segments + segmentsOf(packet) > 255)) flush(false);
    batch.push(packet);
    segments += segmentsOf(packet);
    granule += BigInt(opusPacketSamples(packet));
    if (i === audio.length - 1) flush(true);
  });
  return Buffer.concat(pages);
}
