import type { TemporalGateway } from '../temporal/client';

/** temporal.api.enums.v1 values (the proto package is not a direct dependency of the api). */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE = { workflow: 1, activity: 2 } as const;

/** How long one DescribeTaskQueue answer serves health checks: a probe every second costs one call per interval. */
export const WORKER_PROBE_CACHE_MS = 2000;

/**
 * The calls' gRPC deadline: without one a Temporal that accepts the call and never answers would keep it
 * pending forever, and every health check after the cache interval would add another.
 */
export const WORKER_PROBE_DEADLINE_MS = 2000;

/**
 * Whether a worker polls the task queue: Temporal's DescribeTaskQueue lists the pollers it has seen on the
 * queue's workflow side and on its activity side, and the worker process polls both. Without one, workflows
 * (bot replies, sends, campaigns) wait in the queue. Temporal forgets a poller a few minutes after its last
 * poll, so a worker that just died still counts for that long: this is a readiness check, not a heartbeat.
 * Answers are cached for `cacheMs` and concurrent checks share one call; a call unanswered after
 * WORKER_PROBE_DEADLINE_MS fails (the answer is then false). A failed call is not "no worker": `onError`
 * hears why (a Temporal that refuses DescribeTaskQueue to the api, an unknown namespace), once per cause
 * until a call succeeds, so a probe every few seconds does not repeat it.
 */
export function createWorkerProbe(
  temporal: Pick<TemporalGateway, 'client' | 'taskQueue'>,
  namespace: string,
  options: { cacheMs?: number; now?: () => number; onError?: (err: unknown) => void } = {},
): () => Promise<boolean> {
  const cacheMs = options.cacheMs ?? WORKER_PROBE_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; answer: Promise<boolean> } | undefined;
  let lastFailure: string | undefined;

  const describe = async (): Promise<boolean> => {
    const client = await temporal.client();
    const pollers = async (taskQueueType: number) => {
      const res = await client.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: temporal.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
        taskQueueType,
      });
      return res.pollers?.length ?? 0;
    };
    const [workflow, activity] = await client.withDeadline(Date.now() + WORKER_PROBE_DEADLINE_MS, () =>
      Promise.all([pollers(TASK_QUEUE_TYPE.workflow), pollers(TASK_QUEUE_TYPE.activity)]),
    );
    return workflow > 0 && activity > 0;
  };

  return () => {
    if (cached && now() - cached.at < cacheMs) return cached.answer;
    const answer = describe().then(
      (ok) => {
        lastFailure = undefined;
        return ok;
      },
      (err: unknown) => {
        const cause = err instanceof Error ? err.message : String(err);
        if (cause !== lastFailure) options.onError?.(err);
        lastFailure = cause;
        return false;
      },
    );
    cached = { at: now(), answer };
    return answer;
  };
}
