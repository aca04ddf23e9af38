import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import { cacheRouteMatches } from '../../api/http/routeMatchCache';

/** The router's remembered matches answer what matching again would, request after request. */
describe('cacheRouteMatches', () => {
  function routes(): Router {
    const router = new Router({ prefix: '/api' });
    router.use(async (ctx, next) => {
      ctx.state.seen = ((ctx.state.seen as string[] | undefined) ?? []).concat('mw');
      await next();
    });
    router.get('/item/special', (ctx) => {
      ctx.body = { special: true };
    });
    router.get('/item/:id', (ctx) => {
      ctx.body = { id: ctx.params.id, seen: ctx.state.seen };
    });
    router.put('/item/:id', (ctx) => {
      ctx.body = { put: ctx.params.id };
    });
    return router;
  }

  it('gives the same layers as the router itself for every path and method, and fresh arrays each time', () => {
    const plain = routes();
    const cached = cacheRouteMatches(routes());
    const cases: Array<[string, string]> = [
      ['/api/item/1', 'GET'],
      ['/api/item/2', 'GET'],
      ['/api/item/special', 'GET'],
      ['/api/item/1', 'PUT'],
      ['/api/item/1', 'POST'],
      ['/api/nada', 'GET'],
      [`/api/item/${'x'.repeat(300)}`, 'GET'],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [path, method] of cases) {
        const want = plain.match(path, method);
        const got = cached.match(path, method);
        const paths = (m: typeof want) => m.path.map((l) => `${l.methods.join(',')} ${l.path}`);
        expect(paths(got), `${method} ${path}`).to.deep.equal(paths(want));
        expect(got.pathAndMethod.map((l) => l.path)).to.deep.equal(want.pathAndMethod.map((l) => l.path));
        expect(got.route).to.equal(want.route);
      }
    }
    const first = cached.match('/api/item/1', 'GET');
    first.path.push(first.path[0]);
    expect(cached.match('/api/item/1', 'GET').path.length, 'what a caller added is not remembered').to.equal(first.path.length - 1);
  });

  it('serves each request its own params, 405 and 404 as before', async () => {
    const router = cacheRouteMatches(routes());
    const app = new Koa();
    app.use(router.routes());
    app.use(router.allowedMethods());
    const handle = app.callback();
    const server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const id of ['1', '2', '1', 'a%20b']) {
        const res = await fetch(`${base}/api/item/${id}`);
        expect(await res.json()).to.deep.equal({ id: decodeURIComponent(id), seen: ['mw'] });
      }
      expect(await (await fetch(`${base}/api/item/special`)).json()).to.deep.equal({ special: true });
      expect((await fetch(`${base}/api/item/1`, { method: 'POST' })).status).to.equal(405);
      expect((await fetch(`${base}/api/item/1`, { method: 'POST' })).status).to.equal(405);
      expect((await fetch(`${base}/api/nada`)).status).to.equal(404);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('matches afresh when layers are added after it was set up', () => {
    const router = cacheRouteMatches(new Router());
    expect(router.match('/late', 'GET').route).to.equal(false);
    router.get('/late', (ctx) => {
      ctx.body = 'ok';
    });
    expect(router.match('/late', 'GET').route).to.equal(true);
  });
});
