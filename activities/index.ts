import type { ActivityDeps } from './deps';
import { expireSubscription } from './subscription/expireSubscription';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, bound to its dependencies (the workflows see only the type). */
export function createActivities(deps: ActivityDeps) {
  return {
    expireSubscription: expireSubscription(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
