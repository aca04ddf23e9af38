import type Koa from 'koa';
import type Router from '@koa/router';

/** One route of the app as @koa/router holds it: full path (prefixes applied) and its methods. */
export interface AppRoute {
  method: string;
  path: string;
  /** Names of the path parameters, in order (`/inbox/:segment/:id` → ['segment', 'id']). */
  params: string[];
  /** "METHOD /path", the key of the security catalog. */
  key: string;
}

/**
 * Every route the app answers, read from the routers mounted on the Koa app (each `router.routes()`
 * middleware carries its router; nested routers were already flattened into their parent's stack with the
 * prefix applied). A route added anywhere shows up here without touching the security suite.
 */
export function appRoutes(app: Koa): AppRoute[] {
  const out: AppRoute[] = [];
  const seen = new Set<string>();
  for (const mw of app.middleware as Array<Koa.Middleware & { router?: Router }>) {
    if (!mw.router) continue;
    for (const layer of mw.router.stack) {
      if (!layer.methods.length) continue; // router.use middleware, not a route
      const params = layer.paramNames.map((p) => String(p.name));
      for (const method of layer.methods) {
        if (method === 'HEAD') continue; // answered by GET
        const key = `${method} ${layer.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ method, path: String(layer.path), params, key });
      }
    }
  }
  return out;
}

/** Fills `:name` parameters of a route path. */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(String(v));
  });
}
