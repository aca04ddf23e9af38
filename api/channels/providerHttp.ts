import { ChannelSendError } from './sendErrors';

/**
 * What the clients of the providers we call directly (Telegram Bot API, Meta Graph API) share: the fetch
 * with its timeout and no redirects, and the capped media download. Each client keeps its own error
 * mapping (the providers' error codes differ). The bases are operator configuration, not user input, so
 * they are called without the SSRF guard (the custom channel's endpoint goes through guardedFetch instead).
 */
const TIMEOUT_MS = 15_000;

/** SPEC §1: 16 MB per file across platforms (Telegram itself lets bots download at most 20 MB). */
export const MEDIA_LIMIT_BYTES = 16 * 1024 * 1024;

export class MediaTooLargeError extends Error {
  constructor() {
    super('media over the 16 MB limit');
  }
}

/** fetch with a 15 s timeout and no redirects; a network failure or timeout is a transient ChannelSendError naming `provider`. */
export async function providerFetch(provider: string, url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new ChannelSendError(`Sem contato com o ${provider}; nova tentativa em breve.`, { transient: true, code: (err as Error).name });
  }
}

/** Reads a download's body, refusing more than `maxBytes` whatever its content-length announced (MediaTooLargeError). */
export async function readCappedBody(body: ReadableStream<Uint8Array>, contentLength: string | null, maxBytes: number): Promise<Buffer> {
  if (Number(contentLength ?? 0) > maxBytes) {
    await body.cancel();
    throw new MediaTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new MediaTooLargeError();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
