import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../api/app';
import type { Config } from '../../api/config';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { PNG_1x1 } from '../assets/helpers';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** node:http, because fetch will not send a Host header of our choosing. */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connectSrc(csp: string | string[] | undefined): string[] {
  const directive = String(csp)
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('connect-src '));
  return (directive ?? '').split(/\s+/).slice(1);
}

/**
 * Issue 10 item 12: HSTS over HTTPS (PUBLIC_URL https, or X-Forwarded-Proto https from a trusted proxy),
 * connect-src limited to our own WebSocket origin, and `no-store` on every API answer (sessions, renewal
 * tokens and secrets travel in them) except downloads that set their own caching.
 */
describe('http: security headers (HSTS, connect-src, Cache-Control)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let owner: TestOperator;
  const servers: http.Server[] = [];

  before(async () => {
    api = await startTestApi();
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
    await api.close();
  });

  /** The same app over the same database, with other settings. */
  async function appWith(overrides: Partial<Config>): Promise<string> {
    const handle = createApp({ ...api.deps, config: { ...api.config, ...overrides } }).callback();
    const server = http.createServer((req, res) => void handle(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('sends no HSTS over plain HTTP, and ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    const plain = await rawGet(api.url, '/api/health');
    expect(plain.headers['strict-transport-security']).to.equal(undefined);
    const forged = await rawGet(api.url, '/api/health', { 'X-Forwarded-Proto': 'https' });
    expect(forged.headers['strict-transport-security']).to.equal(undefined);
  });

  it('sends HSTS when PUBLIC_URL is https, or when a trusted proxy says the request came over https', async () => {
    const https = await appWith({ publicUrl: 'https://balcao.example.com.br' });
    for (const path of ['/api/health', '/', '/inbox']) {
      expect((await rawGet(https, path)).headers['strict-transport-security'], path).to.equal('max-age=31536000');
    }
    const proxied = await appWith({ trustProxy: 1 });
    expect((await rawGet(proxied, '/api/health', { 'X-Forwarded-Proto': 'https' })).headers['strict-transport-security']).to.equal('max-age=31536000');
    expect((await rawGet(proxied, '/api/health', { 'X-Forwarded-Proto': 'http' })).headers['strict-transport-security']).to.equal(undefined);
  });

  it('limits connect-src to our own origin’s WebSocket, never any host', async () => {
    const port = new URL(api.url).port;
    const local = connectSrc((await rawGet(api.url, '/', { Host: `127.0.0.1:${port}` })).headers['content-security-policy']);
    expect(local).to.have.members(["'self'", `ws://localhost:${port}`, `ws://127.0.0.1:${port}`, `wss://127.0.0.1:${port}`]);
    for (const source of local) expect(source, 'a bare scheme allows every host').not.to.match(/^wss?:$/);

    const https = await appWith({ publicUrl: 'https://balcao.example.com.br' });
    const secure = connectSrc((await rawGet(https, '/', { Host: 'balcao.example.com.br' })).headers['content-security-policy']);
    expect(secure).to.have.members(["'self'", 'wss://balcao.example.com.br']);

    // Behind a trusted proxy the browser's host is X-Forwarded-Host, and https comes from X-Forwarded-Proto.
    const proxied = await appWith({ trustProxy: 1, publicUrl: 'https://app.example.com.br' });
    const behind = connectSrc((await rawGet(proxied, '/', { 'X-Forwarded-Host': 'atendimento.example.com.br', 'X-Forwarded-Proto': 'https' })).headers['content-security-policy']);
    expect(behind).to.have.members(["'self'", 'wss://app.example.com.br', 'wss://atendimento.example.com.br']);
  });

  it('never writes a Host header that is not a plain host into the policy', async () => {
    for (const host of ['evil.example; script-src *', 'a b', "x'y", 'evil.example/path']) {
      const res = await rawGet(api.url, '/', { Host: host });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, host).not.to.include('evil');
      expect(csp.match(/script-src/g), host).to.have.length(1);
      expect(connectSrc(csp), host).to.have.members(["'self'", `ws://localhost:${new URL(api.url).port}`]);
    }
  });

  it('answers every API call with Cache-Control: no-store — sessions, renewals, secrets, lists and errors', async () => {
    const login = await api.request('POST', '/api/operators/login', { body: { email: owner.email, password: owner.password } });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    expect(login.body.data.workspace.token).to.be.a('string');
    const renewalToken = login.body.data.workspace.renewalToken as string;
    const answers = {
      login,
      renew: await api.request('POST', '/api/operators/renew-token', { body: { renewalToken } }),
      secrets: await api.request('GET', '/api/workspace/secrets', { token: owner.token }),
      newSecret: await api.request('POST', '/api/workspace/secrets', { token: owner.token }),
      createWorkspace: await api.request('POST', '/api/workspace', { token: owner.token, body: { name: 'Outra empresa' } }),
      list: await api.request('GET', '/api/label', { token: owner.token }),
      error: await api.request('GET', '/api/label', {}),
      // No worker polls this api's queue: the api's own parts only (a 503 would be a server error here).
      health: await api.request('GET', '/api/health?parts=db,temporal,mqtt'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.be.below(500);
      expect(res.headers.get('cache-control'), name).to.equal('no-store');
    }
  });

  it('keeps the caching that downloads set for themselves (avatars, files)', async () => {
    const form = new FormData();
    form.append('avatar', new Blob([PNG_1x1], { type: 'image/png' }), 'a.png');
    const up = await fetch(`${api.url}/api/workspace/avatar`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${owner.token}` } });
    expect(up.status).to.equal(201);
    const avatar = ((await up.json()) as { data: Array<{ fileName: string }> }).data[0].fileName;
    const res = await fetch(new URL(avatar, api.url));
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
  });
});
