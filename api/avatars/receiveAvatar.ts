import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { errors } from '../http/errors';
import { sanitizeFileName } from '../assets/fileNames';
import { discardRestOfForm, invalidMultipart, multipartParser } from '../assets/multipart';

/** SPEC §5 "Avatar upload: image, max 1MB". */
export const MAX_AVATAR_BYTES = 1024 * 1024;
export const AVATAR_TOO_LARGE = 'A imagem deve ter no máximo 1MB.';
const MAX_DISCARD_BYTES = 8 * 1024 * 1024;

/**
 * Reads the multipart field `avatar` into memory (it is at most 1 MB). Over the limit is a 413; the rest
 * of the body is drained (up to a cap) so the client gets to read the answer.
 */
export function receiveAvatar(req: IncomingMessage): Promise<{ bytes: Buffer; fileName: string }> {
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(errors.badRequest('Envie a imagem como multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    let done = false;
    let result: { bytes: Buffer; fileName: string } | undefined;
    const parser = multipartParser(req, { limits: { fileSize: MAX_AVATAR_BYTES + 1, files: 1, fields: 10, fieldSize: 1024, parts: 11 } });
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      discardRestOfForm(req, parser, MAX_DISCARD_BYTES);
      reject(err);
    };
    parser.on('file', (field: string, file: Readable, info: { filename?: string }) => {
      if (field !== 'avatar' || result || !info.filename) {
        file.resume();
        return;
      }
      const chunks: Buffer[] = [];
      file.on('data', (c: Buffer) => chunks.push(c));
      file.on('limit', () => {
        file.resume();
        fail(errors.payloadTooLarge(AVATAR_TOO_LARGE));
      });
      file.on('end', () => {
        if (!done) result = { bytes: Buffer.concat(chunks), fileName: sanitizeFileName(info.filename) };
      });
      file.on('error', () => fail(invalidMultipart()));
    });
    parser.on('error', () => fail(invalidMultipart()));
    parser.on('close', () => {
      if (done) return;
      done = true;
      if (!result) reject(errors.field('avatar', 'Envie uma imagem.'));
      else resolve(result);
    });
    req.on('aborted', () => fail(errors.badRequest('Envio interrompido.')));
    req.pipe(parser);
  });
}
