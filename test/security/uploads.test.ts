import http from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { download, filesOnDisk, PNG_1x1 } from '../assets/helpers';
import { firstContact, makeWidget, type TestVisitor } from '../widget/helpers';

/**
 * Uploads (issue 6 "Security"): the 16 MiB limit at its exact edge on both upload paths, refused while the
 * body is still arriving (streamed, never buffered whole), content checked by bytes, and names cleaned of
 * directories and line breaks. test/assets/upload.test.ts covers the rest of the upload behaviour.
 */
const MiB = 1024 * 1024;
const LIMIT = 16 * MiB;
const CHUNK = Buffer.alloc(256 * 1024, 0x62); // 'b': plain text, so the type check passes

interface Target {
  label: string;
  path: string;
  field: string;
  token: () => string;
}

interface OpenUpload {
  req: http.ClientRequest;
  /** Resolves with the status once the server answers, whether or not the body was finished. */
  response: Promise<{ status: number; body: string }>;
  /** Writes `bytes` of file content (with back-pressure), then the closing boundary if `finish`. */
  send(bytes: number, finish: boolean): Promise<void>;
  finished: () => boolean;
}

/** A multipart upload written by hand, chunk by chunk, so a test controls when (and whether) the body ends. */
function openUpload(api: TestApi, t: Target, fileNameHeader: string): OpenUpload {
  const boundary = `----balcao${randomBytes(8).toString('hex')}`;
  const req = http.request(`${api.url}${t.path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.token()}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
  });
  let done = false;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined);
  const write = async (b: Buffer) => {
    if (!req.write(b)) await Promise.race([once(req, 'drain'), response]);
  };
  return {
    req,
    response,
    finished: () => done,
    async send(bytes, finish) {
      await write(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${t.field}"; ${fileNameHeader}\r\nContent-Type: application/octet-stream\r\n\r\n`));
      let left = bytes;
      while (left > 0 && !req.destroyed) {
        const n = Math.min(left, CHUNK.length);
        await write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
        left -= n;
      }
      if (finish) {
        await write(Buffer.from(`\r\n--${boundary}--\r\n`));
        req.end();
        done = true;
      }
    },
  };
}

describe('security: uploads (size limit, streaming refusal, content and names)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let agent: TestOperator;
  let visitor: TestVisitor;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    visitor = await firstContact(api, await makeWidget(api, owner));
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  const targets: Target[] = [
    { label: 'agent upload /api/assets/upload', path: '/api/assets/upload', field: 'file0', token: () => agent.token },
    { label: 'widget visitor /api/v1/widget/files', path: '/api/v1/widget/files', field: 'file', token: () => visitor.token },
  ];
  const rows = async () => Number((await api.deps.knex('stored_files').count({ n: '*' }).first())?.n);

  for (const t of targets) {
    describe(t.label, () => {
      it('accepts a file of exactly 16 MiB', async () => {
        const up = openUpload(api, t, 'filename="limite.txt"');
        await up.send(LIMIT, true);
        const res = await up.response;
        expect(res.status, res.body).to.equal(201);
        expect(res.body).to.contain(`"size":${LIMIT}`);
      });

      it('answers 16 MiB + 1 byte with 413 while the body is still arriving, storing nothing', async () => {
        const disk = filesOnDisk(api);
        const before = await rows();
        const up = openUpload(api, t, 'filename="grande.txt"');
        // One byte over the limit, and the request left open: a server that buffered the body first
        // could not answer before it ends.
        await up.send(LIMIT + 1, false);
        const res = await Promise.race([up.response, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer while the body was open')), 10_000))]);
        expect(up.finished(), 'the request body was never finished').to.equal(false);
        expect(res.status, res.body).to.equal(413);
        expect(JSON.parse(res.body).errors[0]).to.include({ type: 'PayloadTooLargeError' });
        up.req.destroy();
        expect(filesOnDisk(api)).to.deep.equal(disk);
        expect(await rows()).to.equal(before);
      });

      it('refuses HTML renamed .png', async () => {
        const form = new FormData();
        form.append(t.field, new Blob(['<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'], { type: 'image/png' }), 'foto.png');
        const res = await fetch(`${api.url}${t.path}`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${t.token()}` } });
        expect(res.status).to.equal(400);
        expect(((await res.json()) as { errors: { descriptions: string[] }[] }).errors[0].descriptions).to.deep.equal(['Tipo de arquivo não permitido.']);
      });

      it('cleans names with ../ and CR/LF, and sends them back without breaking the headers', async () => {
        const cases = [
          { disposition: 'filename="../../etc/passwd.png"', expected: 'passwd.png' },
          { disposition: 'filename="..\\..\\win\\evil.png"', expected: 'evil.png' },
          { disposition: "filename*=UTF-8''..%2F..%2Fx%0D%0ASet-Cookie%3A%20sessao%3D1%0D%0A.png", expected: 'xSet-Cookie: sessao=1.png' },
          { disposition: "filename*=UTF-8''%0D%0A%0D%0A.png", expected: 'png' },
        ];
        for (const c of cases) {
          const boundary = `----balcao${randomBytes(8).toString('hex')}`;
          const body = Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${t.field}"; ${c.disposition}\r\nContent-Type: image/png\r\n\r\n`),
            PNG_1x1,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          const res = await fetch(`${api.url}${t.path}`, { method: 'POST', body, headers: { Authorization: `Bearer ${t.token()}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` } });
          const answer = (await res.json()) as any;
          expect(res.status, JSON.stringify(answer)).to.equal(201);
          const file = t.path === '/api/assets/upload' ? answer.data[0] : answer.data.message.content[0].file;
          expect(file.fileName, c.disposition).to.not.match(/[\r\n/\\]/);
          expect(file.fileName, c.disposition).to.equal(c.expected);
          const got = await download(api, file.url);
          expect(got.status).to.equal(200);
          expect(got.headers.get('set-cookie')).to.equal(null);
          expect(got.headers.get('content-disposition')).to.not.match(/[\r\n]/);
        }
      });
    });
  }

  it('refuses a declared body far over the limit before reading it', async () => {
    const req = http.request(`${api.url}/api/assets/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(2 * 1024 * MiB) },
    });
    req.write('--x\r\n');
    const [res] = (await Promise.race([once(req, 'response'), new Promise((_, reject) => setTimeout(() => reject(new Error('no early answer')), 5_000))])) as [http.IncomingMessage];
    expect(res.statusCode).to.equal(413);
    req.destroy();
  });

  it('refuses HTML renamed .png as an avatar too', async () => {
    const form = new FormData();
    form.append('avatar', new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }), 'eu.png');
    const res = await fetch(`${api.url}/api/operators/avatar`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${agent.token}` } });
    expect(res.status).to.equal(400);
  });
});
