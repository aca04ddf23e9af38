import type Router from '@koa/router';

/** Distinct method + path pairs remembered; past it the memory starts afresh (ids make paths many). */
const MAX_PATHS = 2000;
/** Longer paths are matched every time: they are rare, and a key is kept in memory. */
const MAX_PATH_LENGTH = 256;

/**
 * Remembers what the router's `match` answered for a method and path. @koa/router tests every layer's
 * regular expression on every request (the api router has some 250 layers, all of `/api`), which was the
 * largest cost of the HTTP floor once the workspace row came from the token cache (docs/performance.md,
 * "HTTP floor"). A layer's match depends only on the path and the method, and the layers do not change
 * after the app is built (the memory starts afresh if they do), so the answer is the same as matching
 * again. Each call gets its own arrays: the router stores them on the context and may add to them.
 */
export function cacheRouteMatches<R extends Router>(router: R): R {
  const match = router.match.bind(router);
  const cache = new Map<string, ReturnType<typeof match>>();
  let layers = router.stack.length;
  router.match = (path: string, method: string) => {
    if (path.length > MAX_PATH_LENGTH) return match(path, method);
    if (router.stack.length !== layers) {
      cache.clear();
      layers = router.stack.length;
    }
    const key = `${method} ${path}`;
    let hit = cache.get(key);
    if (!hit) {
      hit = match(path, method);
      if (cache.size >= MAX_PATHS) cache.clear();
      cache.set(key, hit);
    }
    return { path: [...hit.path], pathAndMethod: [...hit.pathAndMethod], route: hit.route };
  };
  return router;
}
