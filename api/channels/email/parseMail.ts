import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { MailParser, type AttachmentStream, type MessageText, type ParsedMail } from 'mailparser';
import { ATTACHMENT_LIMIT } from './addresses';

/** HTML kept for the inbox's sandboxed view; longer bodies are shown as text only. */
export const HTML_LIMIT = 512 * 1024;

/**
 * An attachment of a mail parsed from its spool file: its decoded bytes are in `file` (a spool file beside
 * the mail's), never in memory. `file` is null when the attachment was larger than ATTACHMENT_LIMIT: its
 * bytes were counted and dropped.
 */
export interface SpooledAttachment {
  filename?: string;
  contentType: string;
  contentDisposition?: string;
  contentId?: string;
  cid?: string;
  related?: boolean;
  /** The decoded size in bytes (counted to the end even past the limit). */
  size: number;
  /** The spool file holding the decoded bytes, or null when over ATTACHMENT_LIMIT. */
  file: string | null;
  /** sha256 hex of the decoded bytes ('' when not kept). */
  sha256: string;
}

/** A parsed mail as simpleParser builds it (same fields, same values), except attachments are spool files. */
export type InboundMail = Omit<ParsedMail, 'attachments'> & { attachments: SpooledAttachment[] };

/** The header fields simpleParser copies onto the mail object, under their camelCase names. */
const HEADER_FIELDS = ['subject', 'references', 'date', 'to', 'from', 'cc', 'bcc', 'message-id', 'in-reply-to', 'reply-to'];

/** Writes one attachment's decoded stream to `file`, counting and hashing as it flows; past ATTACHMENT_LIMIT nothing is kept. */
async function spoolAttachment(content: Readable, file: string): Promise<{ size: number; sha256: string; kept: boolean }> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  let writeError: Error | undefined;
  out.on('error', (err) => (writeError ??= err));
  const hash = createHash('sha256');
  let size = 0;
  let kept = true;
  try {
    for await (const chunk of content as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (!kept) continue;
      if (writeError) throw writeError;
      if (size > ATTACHMENT_LIMIT) {
        // Too large: the file goes, the rest of the attachment is read and dropped.
        kept = false;
        out.destroy();
        await rm(file, { force: true });
        continue;
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('error', done);
            resolve();
          };
          out.on('drain', done);
          out.on('error', done);
        });
      }
    }
    if (kept) {
      out.end();
      await finished(out);
      if (writeError) throw writeError;
    }
  } catch (err) {
    out.destroy();
    await rm(file, { force: true });
    throw err;
  }
  return { size, sha256: kept ? hash.digest('hex') : '', kept };
}

/** Removes the spool files of a parsed mail's attachments. */
export async function removeAttachmentFiles(mail: Pick<InboundMail, 'attachments'>): Promise<void> {
  await Promise.all(mail.attachments.map((a) => (a.file ? rm(a.file, { force: true }) : undefined)));
}

/**
 * Parses the raw mail in `file` with mailparser's streaming MailParser into the same object simpleParser
 * would build (headers, text, html with cid: images inlined as data: URLs), except that each attachment is
 * written to its own spool file `${file}.${n}.part` as it is decoded, with its size and sha256, instead of
 * being gathered into a Buffer. On failure the attachment spool files made so far are removed; on success
 * the caller removes them (removeAttachmentFiles) once the mail is handled.
 */
export function parseSpooledMail(file: string): Promise<InboundMail> {
  const mail = { attachments: [] } as unknown as InboundMail;
  const spooled = new Map<AttachmentStream, SpooledAttachment>();
  const parser = new MailParser();
  const input = createReadStream(file);
  const prefix = `${file}.${randomBytes(4).toString('hex')}`;

  return new Promise<InboundMail>((resolve, reject) => {
    let settled = false;
    /** The attachment stream being spooled, ended with the error if parsing fails meanwhile. */
    let current: Readable | undefined;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      current?.destroy(err instanceof Error ? err : new Error(String(err)));
      input.destroy();
      parser.destroy();
      void removeAttachmentFiles(mail).then(
        () => reject(err),
        () => reject(err),
      );
    };
    parser.on('error', fail);
    input.once('error', fail);
    parser.on('headers', (headers) => {
      mail.headers = headers;
      mail.headerLines = parser.headerLines || [];
      if (parser.otp) mail.otp = parser.otp;
    });

    let reading = false;
    const reader = () => {
      reading = true;
      for (;;) {
        if (settled) return;
        const data = parser.read() as AttachmentStream | MessageText | null;
        if (data === null) {
          reading = false;
          return;
        }
        if (data.type === 'text') {
          for (const key of ['text', 'html', 'textAsHtml', 'textConversionError'] as const) {
            if (key in data) (mail as unknown as Record<string, unknown>)[key] = data[key];
          }
          continue;
        }
        const attachment = data;
        const entry: SpooledAttachment = {
          filename: attachment.filename,
          contentType: attachment.contentType,
          contentDisposition: attachment.contentDisposition,
          contentId: attachment.contentId,
          cid: attachment.cid,
          related: attachment.related,
          size: 0,
          file: `${prefix}.${mail.attachments.length}.part`,
          sha256: '',
        };
        mail.attachments.push(entry);
        spooled.set(attachment, entry);
        current = attachment.content;
        spoolAttachment(attachment.content, entry.file as string).then(
          (result) => {
            current = undefined;
            entry.size = result.size;
            entry.sha256 = result.sha256;
            if (!result.kept) entry.file = null;
            attachment.release?.();
            reader();
          },
          (err: unknown) => {
            current = undefined;
            entry.file = null;
            attachment.release?.();
            fail(err);
          },
        );
        return;
      }
    };
    parser.on('readable', () => {
      if (!reading) reader();
    });

    parser.on('end', () => {
      if (settled) return;
      for (const key of HEADER_FIELDS) {
        if (mail.headers?.has(key)) (mail as unknown as Record<string, unknown>)[key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = mail.headers.get(key);
      }
      // cid: images become data: URLs as simpleParser does, read from their spool files. Images whose URLs
      // would make the HTML longer than HTML_LIMIT are not read: such an HTML is not kept anyway.
      let inlined = 0;
      let tooLong = false;
      parser.updateImageLinks(
        (attachment, done) => {
          const entry = spooled.get(attachment);
          if (!entry?.file || tooLong) return done(null);
          inlined += `data:${attachment.contentType};base64,`.length + Math.ceil(entry.size / 3) * 4;
          if (inlined > HTML_LIMIT) {
            tooLong = true;
            return done(null);
          }
          readFile(entry.file).then(
            (bytes) => done(null, `data:${attachment.contentType};base64,${bytes.toString('base64')}`),
            (err: Error) => done(err),
          );
        },
        (err, html) => {
          if (err) return fail(err);
          mail.html = tooLong ? false : html;
          settled = true;
          resolve(mail);
        },
      );
    });
    input.pipe(parser);
  });
}
