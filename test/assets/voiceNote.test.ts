import { expect } from 'chai';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { MAX_PACKETS_PER_PAGE, oggCrc32, VoiceNoteRemuxError, webmOpusToOgg } from '../../api/assets/voiceNote';
import { startTestApi, type TestApi } from '../helpers/api';
import { unique, type TestOperator } from '../helpers/factories';
import { messageUpdate, TelegramFake } from '../fakes/telegram';
import { makeOwner, postAgentMessage, prepareWorker, untilDeliveryState, withChannelWorker, type WorkerSetup, deliverTelegramUpdate } from '../channels/helpers';
import { download, upload } from './helpers';
import { recordWebmOpus } from './voiceNoteRecording';

const RECORD_MS = 1500;

// ---- an independent reading of the Ogg pages (RFC 3533) --------------------------------------------

/** Bit by bit, straight from RFC 3533's description (poly 0x04C11DB7, init 0, no reflection, no xor out). */
function crcBitwise(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  }
  return crc >>> 0;
}

interface Page {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crcOk: boolean;
  packets: Buffer[];
}

function readPages(ogg: Buffer): Page[] {
  const pages: Page[] = [];
  let pos = 0;
  while (pos < ogg.length) {
    expect(ogg.subarray(pos, pos + 4).toString('latin1'), `capture pattern at ${pos}`).to.equal('OggS');
    const count = ogg[pos + 26]!;
    const lacing = [...ogg.subarray(pos + 27, pos + 27 + count)];
    const headerLen = 27 + count;
    const bodyLen = lacing.reduce((a, b) => a + b, 0);
    const page = Buffer.from(ogg.subarray(pos, pos + headerLen + bodyLen));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    const packets: Buffer[] = [];
    let start = headerLen;
    let len = 0;
    for (const l of lacing) {
      len += l;
      if (l < 255) {
        packets.push(page.subarray(start, start + len));
        start += len;
        len = 0;
      }
    }
    expect(len, 'no packet continues onto the next page').to.equal(0);
    pages.push({ flags: page[5]!, granule: page.readBigInt64LE(6), serial: page.readUInt32LE(14), sequence: page.readUInt32LE(18), crcOk: crcBitwise(page) === stored, packets });
    pos += headerLen + bodyLen;
  }
  return pages;
}

/** 48 kHz samples of an Opus packet, from RFC 6716 §3.1's TOC table. */
function tocSamples(p: Buffer): number {
  const config = p[0]! >> 3;
  const ms = config < 12 ? [10, 20, 40, 60][config % 4]! : config < 16 ? [10, 20][config % 2]! : [2.5, 5, 10, 20][config % 4]!;
  const code = p[0]! & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : p[1]! & 0x3f;
  return ms * 48 * frames;
}

// ---- hand-made Matroska, for what Chromium never writes ------------------------------------------------

function vintSize(n: number): Buffer {
  if (n < 0x7f) return Buffer.from([0x80 | n]);
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n | 0x10000000);
  return b;
}
function el(id: number, ...payload: (Buffer | string | number)[]): Buffer {
  const body = Buffer.concat(payload.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : typeof p === 'number' ? Buffer.from([p]) : p)));
  const idBytes = Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([idBytes, vintSize(body.length), body]);
}
function webm(tracks: Buffer[], blocks: Buffer[], docType = 'webm'): Buffer {
  const header = el(0x1a45dfa3, el(0x4282, docType));
  return Buffer.concat([header, el(0x18538067, el(0x1654ae6b, ...tracks), el(0x1f43b675, el(0xe7, 0), ...blocks))]);
}
const opusTrack = (extra: Buffer[] = []) => el(0xae, el(0xd7, 1), el(0x83, 2), el(0x86, 'A_OPUS'), ...extra);
/** A SimpleBlock of track 1: a 20 ms CELT packet (config 31, code 0) of silence-ish bytes. */
const simpleBlock = (flags = 0x80) => el(0xa3, Buffer.from([0x81, 0, 0, flags, 0xf8, 0xff, 0xfe]));

function remuxError(fn: () => unknown): VoiceNoteRemuxError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(VoiceNoteRemuxError);
    return err as VoiceNoteRemuxError;
  }
  throw new Error('expected a VoiceNoteRemuxError');
}

describe('voice notes: a WebM/Opus recording becomes Ogg/Opus (issues 12 and 13)', function () {
  this.timeout(90_000);
  let recording: { bytes: Buffer; mime: string; elapsedMs: number };

  before(async () => {
    recording = await recordWebmOpus(RECORD_MS);
  });

  describe('webmOpusToOgg', () => {
    it('remuxes a real Chromium MediaRecorder clip to Ogg that an Opus decoder plays for the recorded length, not silent', async () => {
      expect(recording.mime).to.match(/^audio\/webm;codecs=opus$/i);
      expect(recording.bytes.readUInt32BE(0)).to.equal(0x1a45dfa3);
      const ogg = webmOpusToOgg(recording.bytes);
      const decoder = new OggOpusDecoder();
      await decoder.ready;
      try {
        const out = await decoder.decodeFile(new Uint8Array(ogg));
        expect(out.errors).to.deep.equal([]);
        const seconds = out.samplesDecoded / 48_000;
        expect(seconds).to.be.within(recording.elapsedMs / 1000 - 0.25, recording.elapsedMs / 1000 + 0.25);
        const samples = out.channelData[0]!;
        let energy = 0;
        for (const v of samples) energy += v * v;
        const rms = Math.sqrt(energy / samples.length);
        expect(rms, 'a 440 Hz tone, not silence').to.be.greaterThan(0.1);
      } finally {
        decoder.free();
      }
    });

    it('writes valid Ogg pages: OpusHead, then OpusTags, then the packets with CRCs, granules from the TOC bytes and EOS on the last', () => {
      const ogg = webmOpusToOgg(recording.bytes);
      const pages = readPages(ogg);
      expect(pages.length).to.be.at.least(3);
      expect(pages.every((p) => p.crcOk), 'every page CRC').to.equal(true);
      expect(pages.map((p) => p.sequence)).to.deep.equal(pages.map((_, i) => i));
      expect(new Set(pages.map((p) => p.serial)).size).to.equal(1);
      const [head, tags, ...data] = pages;
      expect(head!.flags).to.equal(0x02);
      expect(head!.packets).to.have.length(1);
      const opusHead = head!.packets[0]!;
      expect(opusHead.subarray(0, 8).toString('latin1')).to.equal('OpusHead');
      expect(opusHead[8]).to.equal(1);
      expect(head!.granule).to.equal(0n);
      expect(tags!.packets.map((p) => p.subarray(0, 8).toString('latin1'))).to.deep.equal(['OpusTags']);
      expect(tags!.granule).to.equal(0n);
      expect(data.map((p) => p.flags), 'EOS on the last page only').to.deep.equal(data.map((_, i) => (i === data.length - 1 ? 0x04 : 0)));
      let total = 0n;
      for (const page of data) {
        expect(page.packets.length).to.be.within(1, MAX_PACKETS_PER_PAGE);
        total += BigInt(page.packets.reduce((sum, p) => sum + tocSamples(p), 0));
        expect(page.granule, 'granule = samples through the page').to.equal(total);
      }
      const preSkip = opusHead.readUInt16LE(10);
      expect(Number(total) - preSkip).to.be.within(((recording.elapsedMs - 250) * 48_000) / 1000, ((recording.elapsedMs + 250) * 48_000) / 1000);
    });

    it(`splits the packets over pages of at most ${MAX_PACKETS_PER_PAGE}, each page's granule counting the samples through it`, () => {
      const ogg = webmOpusToOgg(webm([opusTrack()], Array.from({ length: 120 }, () => simpleBlock())));
      const data = readPages(ogg).slice(2);
      expect(data.map((p) => p.packets.length)).to.deep.equal([50, 50, 20]);
      expect(data.map((p) => p.granule)).to.deep.equal([50n * 960n, 100n * 960n, 120n * 960n]);
      expect(data.map((p) => p.flags)).to.deep.equal([0, 0, 0x04]);
    });

    it('unpacks Xiph, fixed-size and EBML laced blocks into their packets, in order', () => {
      const big = Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(299, 7)]);
      const small = Buffer.from([0xf8, 2, 3]);
      const last = Buffer.from([0xf8, 9]);
      const header = (lacing: number, count: number) => Buffer.from([0x81, 0, 0, 0x80 | lacing, count - 1]);
      const xiph = el(0xa3, header(0x02, 3), Buffer.from([255, 45, 3]), big, small, last);
      const fixed = el(0xa3, header(0x04, 3), Buffer.from([0xf8, 1, 0xf8, 2, 0xf8, 3]));
      // EBML: 300 as a 2-byte vint, then 3 - 300 = -297 as a signed 2-byte vint (value + 8191).
      const ebml = el(0xa3, header(0x06, 3), Buffer.from([0x41, 0x2c, 0x40 | ((7894 >> 8) & 0x3f), 7894 & 0xff]), big, small, last);
      const packets = readPages(webmOpusToOgg(webm([opusTrack()], [xiph, fixed, ebml]))).slice(2).flatMap((p) => p.packets);
      const fixedFrames = [Buffer.from([0xf8, 1]), Buffer.from([0xf8, 2]), Buffer.from([0xf8, 3])];
      expect(packets.map((p) => p.toString('hex'))).to.deep.equal([big, small, last, ...fixedFrames, big, small, last].map((p) => p.toString('hex')));
    });

    it('computes the Ogg CRC-32 (0x04C11DB7, not reflected, no final xor) of the check string as 0x89A1897F', () => {
      expect(oggCrc32(Buffer.from('123456789'))).to.equal(0x89a1897f);
      expect(crcBitwise(Buffer.from('123456789'))).to.equal(0x89a1897f);
    });

    it('builds the OpusHead from the track when CodecPrivate is absent (channels, CodecDelay as pre-skip)', () => {
      const ogg = webmOpusToOgg(webm([opusTrack([el(0xe1, el(0x9f, 2)), el(0x56aa, Buffer.from([0x63, 0x2e, 0xa0]))])], [simpleBlock(), simpleBlock()]));
      const [head, , data] = readPages(ogg);
      const opusHead = head!.packets[0]!;
      expect(opusHead.subarray(0, 8).toString('latin1')).to.equal('OpusHead');
      expect(opusHead[9], 'channels').to.equal(2);
      expect(opusHead.readUInt16LE(10), 'pre-skip from 6.5 ms').to.equal(312);
      expect(opusHead.readUInt32LE(12)).to.equal(48_000);
      expect(data!.granule).to.equal(1920n);
      expect(data!.flags).to.equal(0x04);
    });

    it('refuses with a typed error what is not WebM with one Opus audio track, corrupt lacing or OpusHead, and files over 16 MB', () => {
      expect(remuxError(() => webmOpusToOgg(Buffer.from('isto não é áudio nenhum'))).code).to.equal('not_webm');
      expect(remuxError(() => webmOpusToOgg(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60)]))).code).to.equal('not_webm');
      expect(remuxError(() => webmOpusToOgg(webm([opusTrack()], [simpleBlock()], 'mkvx'))).code).to.equal('not_webm');
      const vp8 = el(0xae, el(0xd7, 1), el(0x83, 1), el(0x86, 'V_VP8'));
      expect(remuxError(() => webmOpusToOgg(webm([vp8], [simpleBlock()]))).code).to.equal('not_single_opus_track');
      const vorbis = el(0xae, el(0xd7, 1), el(0x83, 2), el(0x86, 'A_VORBIS'));
      expect(remuxError(() => webmOpusToOgg(webm([vorbis], [simpleBlock()]))).code).to.equal('not_single_opus_track');
      const second = el(0xae, el(0xd7, 2), el(0x83, 2), el(0x86, 'A_OPUS'));
      expect(remuxError(() => webmOpusToOgg(webm([opusTrack(), second], [simpleBlock()]))).code).to.equal('not_single_opus_track');
      expect(remuxError(() => webmOpusToOgg(webm([opusTrack([el(0x63a2, 'NaoEhOpusHead.......')])], [simpleBlock()]))).code).to.equal('malformed');
      const badFixedLacing = el(0xa3, Buffer.from([0x81, 0, 0, 0x84, 1, 0xf8, 0x01, 0x02]));
      expect(remuxError(() => webmOpusToOgg(webm([opusTrack()], [badFixedLacing]))).code).to.equal('malformed');
      expect(remuxError(() => webmOpusToOgg(webm([opusTrack()], []))).code).to.equal('empty');
      const tooBig = Buffer.concat([recording.bytes, Buffer.alloc(16 * 1024 * 1024)]);
      const err = remuxError(() => webmOpusToOgg(tooBig));
      expect(err.code).to.equal('too_large');
      expect(err.message).to.equal('O arquivo excede o limite de 16 MB.');
    });
  });

  describe('the inbox upload and the Telegram line', () => {
    const telegram = new TelegramFake();
    let api: TestApi;
    let worker: WorkerSetup;
    let owner: TestOperator;

    before(async () => {
      await telegram.start();
      // Telegram (and its fake) only take an HTTPS webhook on 443/80/88/8443; Updates are posted to the loopback address.
      api = await startTestApi({ temporalTaskQueue: unique('voice-note'), telegramApiUrl: telegram.url, publicUrl: 'https://balcao.example' });
      worker = await prepareWorker();
      ({ owner } = await makeOwner(api));
    });
    after(async () => {
      await worker?.connection.close();
      await api?.close();
      await telegram.stop();
    });

    it('stores the composer\'s recorded voice note (record.webm) as audio/ogg record.ogg, the download being the Ogg', async () => {
      const res = await upload(api, owner.token, [{ name: 'record.webm', bytes: recording.bytes, type: 'audio/webm' }]);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const [file] = res.body.data;
      expect(file).to.include({ fileName: 'record.ogg', mime: 'audio/ogg' });
      const row = await api.deps.knex('stored_files').where({ key: file.key }).first();
      expect(row).to.include({ mime: 'audio/ogg', fileName: 'record.ogg', size: file.size });
      const got = await download(api, file.url);
      expect(got.status).to.equal(200);
      expect(got.headers.get('content-type')).to.equal('audio/ogg');
      expect(got.bytes.length).to.equal(file.size);
      expect(got.bytes.equals(webmOpusToOgg(recording.bytes))).to.equal(true);
    });

    it('keeps a WebM that is not one Opus track (a video) as it came', async () => {
      const video = webm([el(0xae, el(0xd7, 1), el(0x83, 1), el(0x86, 'V_VP8'))], [simpleBlock()]);
      const res = await upload(api, owner.token, [{ name: 'clipe.webm', bytes: video, type: 'video/webm' }]);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data[0]).to.include({ fileName: 'clipe.webm', mime: 'video/webm', size: video.length });
      expect((await download(api, res.body.data[0].url)).bytes.equals(video)).to.equal(true);
    });

    it('keeps an Opus WebM it cannot remux (a corrupt OpusHead) as it came instead of failing the upload', async () => {
      const broken = webm([opusTrack([el(0x63a2, 'NaoEhOpusHead.......')])], [simpleBlock()]);
      const res = await upload(api, owner.token, [{ name: 'record.webm', bytes: broken, type: 'audio/webm' }]);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data[0]).to.include({ fileName: 'record.webm', mime: 'video/webm', size: broken.length });
      expect((await download(api, res.body.data[0].url)).bytes.equals(broken)).to.equal(true);
    });

    it('sends the recorded voice note to Telegram by sendVoice as an Ogg/Opus file', async () => {
      const botToken = telegram.addBot().token;
      const added = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: botToken, description: 'Bot da loja' } });
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      const line = added.body.data as { id: number; identifier: string };
      const secret = telegram.webhooks.get(botToken)!.secret_token!;
      const user = { id: 6_000_000 + Math.floor(Math.random() * 10 ** 6), first_name: 'Ana' };
      expect((await deliverTelegramUpdate(api, `${api.url}/api/hooks/telegram/${line.identifier}`, messageUpdate(user, { text: 'Olá' }), secret)).status).to.equal(200);
      const [first] = await api.deps.knex('messages').where({ channelId: line.id }).orderBy('id');
      const id = first.customerPlatformId as number;

      const [file] = (await upload(api, owner.token, [{ name: 'record.webm', bytes: recording.bytes, type: 'audio/webm' }])).body.data;
      await withChannelWorker(api, worker, async () => {
        const sent = await postAgentMessage(api, owner, { id, content: [{ file: { key: file.key, fileName: file.fileName, mime: file.mime, size: file.size } }] });
        await untilDeliveryState(api, sent, 'sent');
      }, { channels: { initialDelayMs: 100, maxDelayMs: 2_000, maxAttempts: 3 } });

      const sends = telegram.calls.filter((c) => c.token === botToken && c.method.startsWith('send'));
      expect(sends.map((c) => [c.method, c.file?.field, c.file?.name])).to.deep.equal([['sendVoice', 'voice', 'record.ogg']]);
      const bytes = sends[0]!.file!.bytes;
      expect(bytes.subarray(0, 4).toString('latin1')).to.equal('OggS');
      expect(readPages(bytes)[0]!.packets[0]!.subarray(0, 8).toString('latin1')).to.equal('OpusHead');
    });
  });
});
