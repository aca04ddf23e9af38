import { NativeConnection } from '@temporalio/worker';
import type { Logger } from '../../api/logger';

/**
 * Connects the worker to Temporal, retrying for a while: under `npm start` the dev server may still be
 * booting when the worker starts. `shouldStop` lets a shutdown signal end the wait.
 */
export async function connectWithRetry(
  address: string,
  logger: Logger,
  options: { timeoutMs?: number; shouldStop?: () => boolean } = {},
): Promise<NativeConnection | undefined> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await NativeConnection.connect({ address });
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      if (attempt === 1 || attempt % 10 === 0) logger.warn({ address, attempt, err: (err as Error).message }, 'temporal not reachable yet, retrying');
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2000)));
    if (options.shouldStop?.()) return undefined;
  }
}
