import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { STORAGE_BUDGETS } from '../../api/assets/storageBudgets';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from '../widget/helpers';
import { filesOnDisk, upload } from './helpers';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const HOUR = 3600;

describe('storage budgets: per visitor and per channel each day, per workspace in total, unsent uploads counted', function () {
  this.timeout(180_000);
  let api: TestApi;
  let owner: TestOperator;
  let widget: TestWidget;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    widget = await makeWidget(api, owner);
  });
  beforeEach(() => api.deps.rateLimiter.reset());
  after(() => api.close());

  const visitorFile = async (visitor: TestVisitor, bytes: Buffer, name = 'arquivo.txt') => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/plain' }), name);
    const res = await fetch(`${api.url}/api/v1/widget/files`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${visitor.token}` } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  /** A stored_files row as an upload leaves it, never attached to any message, `hoursAgo` old. */
  const storedEarlier = async (row: { workspaceId: number; size: number; hoursAgo?: number; channelId?: number; visitorId?: string; operatorId?: number }) => {
    await api.deps.knex('stored_files').insert({
      workspaceId: row.workspaceId,
      channelId: row.channelId ?? null,
      visitorId: row.visitorId ?? null,
      operatorId: row.operatorId ?? null,
      key: randomBytes(18).toString('base64url'),
      fileName: 'antigo.txt',
      mime: 'text/plain',
      size: row.size,
      createdAt: api.deps.knex.raw('now() - make_interval(secs => ?)', [(row.hoursAgo ?? 1) * HOUR]),
    });
  };
  const storedBy = async (visitor: TestVisitor) =>
    Number((await api.deps.knex('stored_files').where({ channelId: widget.id, visitorId: visitor.id }).sum({ n: 'size' }).first())?.n ?? 0);
  const keysOf = async (workspaceId: number) => (await api.deps.knex('stored_files').where({ workspaceId }).pluck('key')) as string[];

  it('ten parallel 16 MiB uploads of one visitor store at most 50 MB: the rest are refused (429) and leave nothing on disk', async () => {
    const visitor = await firstContact(api, widget);
    const diskBefore = new Set(filesOnDisk(api));
    const keysBefore = new Set(await keysOf(widget.workspaceId));
    const big = Buffer.alloc(16 * MiB, 'a');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => visitorFile(visitor, big, `parte${i}.txt`)));

    const stored = answers.filter((a) => a.status === 201);
    expect(stored).to.have.length(Math.floor(STORAGE_BUDGETS.visitorPerDay / (16 * MiB)));
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
      expect(refused.body.errors).to.deep.equal([
        {
          type: 'RateLimitError',
          title: 'Limite de arquivos atingido',
          descriptions: ['Você atingiu o limite de 50 MB em arquivos enviados nas últimas 24 horas. Tente novamente mais tarde.'],
        },
      ]);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    }
    expect(await storedBy(visitor)).to.be.at.most(STORAGE_BUDGETS.visitorPerDay);
    // Only the kept files are on disk: refused ones were never written or were removed.
    const newOnDisk = filesOnDisk(api).filter((f) => !diskBefore.has(f)).map((f) => f.split('/').pop());
    const newKeys = (await keysOf(widget.workspaceId)).filter((k) => !keysBefore.has(k));
    expect(newOnDisk.sort()).to.deep.equal(newKeys.sort());

    // Once settled, the answer says when the oldest of today's uploads leaves the 24 hours (the count
    // of files per 10 minutes, a limit of its own, is set aside).
    await api.deps.rateLimiter.reset();
    const again = await visitorFile(visitor, Buffer.alloc(3 * MiB, 'b'));
    expect(again.status).to.equal(429);
    expect(Number(again.headers.get('retry-after'))).to.be.within(24 * HOUR - 120, 24 * HOUR);
    // Another visitor of the same channel has a budget of their own.
    expect((await visitorFile(await firstContact(api, widget), Buffer.alloc(MiB, 'c'))).status).to.equal(201);
  });

  it('counts a visitor’s uploads never sent in a message, until they are 24 hours old', async () => {
    const unsent = await firstContact(api, widget);
    await storedEarlier({ workspaceId: widget.workspaceId, channelId: widget.id, visitorId: unsent.id, size: 49 * MiB, hoursAgo: 2 });
    const refused = await visitorFile(unsent, Buffer.alloc(2 * MiB, 'd'));
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(22 * HOUR - 120, 22 * HOUR);
    expect(await visitorFile(unsent, Buffer.alloc(MiB / 2, 'e')), 'what still fits').to.include({ status: 201 });

    const yesterday = await firstContact(api, widget);
    await storedEarlier({ workspaceId: widget.workspaceId, channelId: widget.id, visitorId: yesterday.id, size: 49 * MiB, hoursAgo: 25 });
    expect((await visitorFile(yesterday, Buffer.alloc(2 * MiB, 'f'))).status).to.equal(201);
  });

  it('holds all the visitors of one channel to 1 GB a day, agents’ uploads aside; another channel is not held', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const busy = await makeWidget(api, boss);
    const quiet = await makeWidget(api, boss);
    for (let i = 0; i < 20; i++) {
      await storedEarlier({ workspaceId: ws.id, channelId: busy.id, visitorId: `visitante-${i}`, size: Math.floor((GiB - 2 * MiB) / 20), hoursAgo: 1 + i / 2 });
    }
    await storedEarlier({ workspaceId: ws.id, operatorId: boss.id, size: 2 * GiB });
    const visitor = await firstContact(api, busy);
    expect((await visitorFile(visitor, Buffer.alloc(MiB, 'g'))).status, 'still fits').to.equal(201);
    const refused = await visitorFile(visitor, Buffer.alloc(2 * MiB, 'h'));
    expect(refused.status).to.equal(429);
    expect(refused.body.errors[0].descriptions).to.deep.equal(['Este canal atingiu o limite de 1 GB em arquivos de visitantes nas últimas 24 horas. Tente novamente mais tarde.']);
    // The oldest visitor upload (10.5 hours old) leaves first and frees enough.
    expect(Number(refused.headers.get('retry-after'))).to.be.within(13.5 * HOUR - 120, 13.5 * HOUR);
    expect((await visitorFile(await firstContact(api, quiet), Buffer.alloc(2 * MiB, 'i'))).status).to.equal(201);
  });

  it('keeps a workspace to 10 GB of everything it stores (unsent agent uploads too): 413 for agents and visitors alike, other workspaces go on', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    const site = await makeWidget(api, boss);
    const visitor = await firstContact(api, site);
    await storedEarlier({ workspaceId: ws.id, operatorId: boss.id, size: STORAGE_BUDGETS.workspaceTotal - 3 * MiB, hoursAgo: 24 * 90 });

    // An agent's upload that never goes into a message still takes its room.
    const unsent = await upload(api, agent.token, [{ name: 'rascunho.txt', bytes: Buffer.alloc(2 * MiB, 'j') }]);
    expect(unsent.status, JSON.stringify(unsent.body)).to.equal(201);
    const full = await upload(api, agent.token, [{ name: 'mais.txt', bytes: Buffer.alloc(2 * MiB, 'k') }]);
    expect(full.status).to.equal(413);
    expect(full.body.errors).to.deep.equal([
      { type: 'PayloadTooLargeError', title: 'Arquivo muito grande', descriptions: ['O espaço para arquivos deste workspace (10 GB) está cheio.'] },
    ]);
    const fromVisitor = await visitorFile(visitor, Buffer.alloc(2 * MiB, 'l'));
    expect(fromVisitor.status).to.equal(413);
    expect(fromVisitor.body.errors[0].type).to.equal('PayloadTooLargeError');

    expect((await upload(api, owner.token, [{ name: 'outro.txt', bytes: Buffer.alloc(2 * MiB, 'm') }])).status, 'another workspace').to.equal(201);
  });

  it('checks again when the files are recorded: what another api node stored meanwhile counts, and the late upload is removed', async () => {
    const visitor = await firstContact(api, widget);
    await storedEarlier({ workspaceId: widget.workspaceId, channelId: widget.id, visitorId: visitor.id, size: 40 * MiB });
    const diskBefore = filesOnDisk(api);
    const rowsBefore = await storedBy(visitor);

    const boundary = `----balcao${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lento.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const half = Buffer.alloc(4 * MiB, 'n');
    const req = http.request(`${api.url}/api/v1/widget/files`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${visitor.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + 2 * half.length + tail.length),
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
      });
      req.on('error', reject);
    });
    const write = async (b: Buffer) => {
      if (!req.write(b)) await once(req, 'drain');
    };
    // The first half is read, so the upload was admitted (40 + 8 MB fit in 50)…
    await write(head);
    await write(half);
    await write(half.subarray(0, 1024));
    // …then another node records 5 MB of this visitor's before this upload ends.
    await storedEarlier({ workspaceId: widget.workspaceId, channelId: widget.id, visitorId: visitor.id, size: 5 * MiB, hoursAgo: 0 });
    await write(half.subarray(1024));
    req.end(tail);
    const res = await answer;
    expect(res.status, res.body).to.equal(429);
    expect(JSON.parse(res.body).errors[0].title).to.equal('Limite de arquivos atingido');
    expect(await storedBy(visitor)).to.equal(rowsBefore + 5 * MiB);
    expect(filesOnDisk(api)).to.deep.equal(diskBefore);
  });

  it('records who uploaded: a visitor’s channel and id, nothing of the kind for an agent', async () => {
    const visitor = await firstContact(api, widget);
    const res = await visitorFile(visitor, Buffer.from('olá'));
    expect(res.status).to.equal(201);
    const rows = await api.deps.knex('stored_files').where({ channelId: widget.id, visitorId: visitor.id });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ workspaceId: widget.workspaceId, operatorId: null, size: 4 });
    const agentFile = await upload(api, owner.token, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    expect(await api.deps.knex('stored_files').where({ key: agentFile.body.data[0].key }).first('channel_id', 'visitor_id')).to.deep.equal({ channelId: null, visitorId: null });
  });
});
