import { HEALTH_PARTS } from '../../api/health/schema';

/** The parts `npm start` waits for before it says the stack is up: every part GET /api/health checks, worker included. */
export const READY_PARTS = HEALTH_PARTS;

export interface HealthAnswer {
  status: number;
  body: unknown;
}

/**
 * Whether one /api/health answer means every part is ready: 200 and each of READY_PARTS 'ok'. A 200 that
 * does not name the worker (an older api, some other server on the port) is not ready: a bot reply would
 * still wait for the worker.
 */
export function healthReady(answer: HealthAnswer | undefined): boolean {
  if (!answer || answer.status !== 200) return false;
  const data = (answer.body as { data?: Record<string, unknown> } | null)?.data;
  return !!data && READY_PARTS.every((p) => data[p] === 'ok');
}

/** The parts one answer names as not ready (all of them when it names none), for the message on a timeout. */
export function pendingParts(answer: HealthAnswer | undefined): string[] {
  const data = (answer?.body as { data?: Record<string, unknown> } | null)?.data;
  if (!data) return [...READY_PARTS];
  return READY_PARTS.filter((p) => data[p] !== 'ok');
}

async function askHealth(url: string, timeoutMs: number): Promise<HealthAnswer | undefined> {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  } catch {
    return undefined;
  }
}

/**
 * Polls `{url}/api/health` until healthReady; throws with the parts still pending after `timeoutMs`, or at
 * once when `failed()` says a process it waits for has ended.
 */
export async function waitForHealth(url: string, options: { timeoutMs: number; intervalMs?: number; failed?: () => boolean }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last: HealthAnswer | undefined;
  for (;;) {
    last = await askHealth(url, 3000);
    if (healthReady(last)) return;
    if (options.failed?.()) throw new Error('um processo terminou antes de o Balcão ficar pronto');
    if (Date.now() > deadline) throw new Error(`o Balcão não ficou pronto em ${Math.round(options.timeoutMs / 1000)} s (aguardando: ${pendingParts(last).join(', ')})`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 500));
  }
}
