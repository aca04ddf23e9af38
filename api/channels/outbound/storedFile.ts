import type { ChannelDeps } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { createStorage } from '../../storage/storage';

/** The bytes of a file an outbound message attaches (uploaded to a provider); a missing one fails the send for good. */
export async function readStoredFile(deps: ChannelDeps, key: string): Promise<Buffer> {
  const obj = await createStorage(deps.config).get(key);
  if (!obj) throw new ChannelSendError('Arquivo não encontrado no armazenamento.', { transient: false });
  const chunks: Buffer[] = [];
  for await (const c of obj.stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}
