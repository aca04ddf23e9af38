import type { IncomingMessage } from 'node:http';
import busboy, { type BusboyConfig } from 'busboy';
import { errors } from '../http/errors';

export const invalidMultipart = () => errors.badRequest('Requisição multipart inválida.');

/** A busboy parser for the request; headers that are no multipart form throw a 400 (a rejection inside a Promise executor). */
export function multipartParser(req: IncomingMessage, config: Omit<BusboyConfig, 'headers'>): ReturnType<typeof busboy> {
  try {
    return busboy({ headers: req.headers, ...config });
  } catch {
    throw invalidMultipart();
  }
}

/**
 * Stops parsing the form at its first fatal problem. The rest of the body is read and discarded so the
 * client, still sending, gets to read the answer; a client that keeps sending beyond `maxDiscardBytes`
 * loses the connection instead.
 */
export function discardRestOfForm(req: IncomingMessage, parser: NodeJS.WritableStream, maxDiscardBytes: number): void {
  req.unpipe(parser);
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxDiscardBytes) req.socket.destroy();
  });
  req.resume();
}
