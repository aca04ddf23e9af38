import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** Bytes kept from the start of a file: enough for magic numbers, zip-based formats and markup sniffing. */
const HEAD_BYTES = 64 * 1024;
// Things that make an SVG or XML document run code when a browser opens it.
const ACTIVE_MARKUP = /<\s*script|<\s*foreignobject|<\s*iframe|<\s*embed|<\s*object|<\s*handler|\son[a-z]+\s*=|(?:java|vb)script\s*:|xhtml/i;
const CARRY = 64;

/** What the type check needs to know about a file, learnt while it streams into storage. */
export interface ContentFacts {
  size: number;
  head: Buffer;
  sha256: string;
  /** The whole file is valid UTF-8 without NUL bytes (plain text candidate). */
  isText: boolean;
  /** Script-capable markup appears somewhere in the (text) file. */
  hasActiveMarkup: boolean;
}

/**
 * A pass-through stream that measures, hashes and inspects a file on its way to storage, so the upload
 * never has to be read twice or held in memory.
 */
export class ContentInspector extends Transform {
  private size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private text = true;
  private active = false;
  private carry = '';
  private done = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(part);
      this.headLength += part.length;
    }
    if (this.text) this.scanText(chunk, true);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.text) this.scanText(new Uint8Array(0), false);
    this.done = true;
    callback();
  }

  private scanText(chunk: Uint8Array, stream: boolean): void {
    if (chunk.includes(0)) {
      this.text = false;
      return;
    }
    let decoded: string;
    try {
      decoded = this.decoder.decode(chunk, { stream });
    } catch {
      this.text = false;
      return;
    }
    const window = this.carry + decoded;
    if (!this.active && ACTIVE_MARKUP.test(window)) this.active = true;
    this.carry = window.slice(-CARRY);
  }

  /** Available once the stream has ended. */
  facts(): ContentFacts {
    if (!this.done) throw new Error('ContentInspector.facts() before the stream ended');
    return {
      size: this.size,
      head: Buffer.concat(this.headChunks),
      sha256: this.hash.digest('hex'),
      isText: this.text,
      hasActiveMarkup: this.active,
    };
  }
}
