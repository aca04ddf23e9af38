import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function upload(api: TestApi, path: string, token: string, bytes: Buffer, name = 'foto.png', type = 'image/png') {
  const form = new FormData();
  form.append('avatar', new Blob([bytes], { type }), name);
  const res = await fetch(`${api.url}${path}`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
}

describe('avatar uploads /api/operators/avatar and /api/workspace/avatar', () => {
  let api: TestApi;
  let master: TestOperator;
  let agent: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
  });
  after(() => api.close());

  it("accepts a PNG as the operator's avatar and serves it as an image with nosniff", async () => {
    const res = await upload(api, '/api/operators/avatar', agent.token, PNG);
    expect(res.status).to.equal(201);
    const url: string = res.body.data[0].fileName;
    expect(res.body.user.avatar).to.equal(url);
    const row = await api.deps.knex('operators').where({ id: agent.id }).first();
    expect(row.avatar).to.equal(url);
    const img = await fetch(`${api.url}${new URL(url).pathname}`);
    expect(img.status).to.equal(200);
    expect(img.headers.get('content-type')).to.equal('image/png');
    expect(img.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).to.equal(true);
  });

  it("updates the workspace's avatar from level 6 only", async () => {
    const res = await upload(api, '/api/workspace/avatar', master.token, PNG);
    expect(res.status).to.equal(201);
    expect(res.body.workspace.avatar).to.equal(res.body.data[0].fileName);
    expect((await upload(api, '/api/workspace/avatar', agent.token, PNG)).status).to.equal(403);
  });

  it('refuses an image over 1 MB with 413', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1.1 * 1024 * 1024)]);
    const res = await upload(api, '/api/operators/avatar', agent.token, big);
    expect(res.status).to.equal(413);
    expect(res.body.errors[0].type).to.equal('PayloadTooLargeError');
  });

  it('refuses HTML disguised as a PNG with 400', async () => {
    const res = await upload(api, '/api/operators/avatar', agent.token, Buffer.from('<html><script>alert(1)</script></html>'), 'foto.png', 'image/png');
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].key).to.equal('avatar');
  });

  it('never serves a non-avatar stored file by key', async () => {
    const res = await fetch(`${api.url}/api/avatars/abcdefghijklmnop`);
    expect(res.status).to.equal(404);
  });
});
