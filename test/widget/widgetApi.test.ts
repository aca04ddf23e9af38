import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { PNG_1x1, download } from '../assets/helpers';
import { firstContact, insertMessage, makeWidget, type TestWidget } from './helpers';

describe('public widget API /api/v1/widget', () => {
  let api: TestApi;
  let owner: TestOperator;
  let widget: TestWidget;
  let otherWidget: TestWidget;
  let companyName: string;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    companyName = ws.name;
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Bruna Atendente' });
    widget = await makeWidget(api, owner, 'Chat do site', '#12B76A');
    const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    otherWidget = await makeWidget(api, other, 'Outro site');
  });
  beforeEach(() => api.deps.rateLimiter.reset());
  after(() => api.close());

  const post = (body: unknown, token?: string) => api.request('POST', '/api/v1/widget/messages', { body, token });
  const message = (content: unknown, extra: Record<string, unknown> = {}) => ({ content, type: 'text', identifier: widget.identifier, ...extra });
  const keys = (res: { body: { errors: Array<{ key: string }> } }) => res.body.errors.map((e) => e.key).sort();

  describe('config', () => {
    it('answers the company name and the widget colour for a known identifier', async () => {
      const res = await api.request('GET', `/api/v1/widget/config?identifier=${widget.identifier}`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ identifier: widget.identifier, company: companyName, color: '#12B76A' });
    });

    it('is 404 for an unknown identifier and 400 for a malformed or missing one', async () => {
      expect((await api.request('GET', `/api/v1/widget/config?identifier=${'a'.repeat(32)}`)).status).to.equal(404);
      expect((await api.request('GET', '/api/v1/widget/config?identifier=%3Cscript%3E')).status).to.equal(400);
      expect((await api.request('GET', '/api/v1/widget/config')).status).to.equal(400);
      // A channel of another type is no widget.
      await api.deps.knex('channels').insert({ workspaceId: widget.workspaceId, platformId: 2, type: 'telegram', identifier: 'telegram-identifier-1' });
      expect((await api.request('GET', '/api/v1/widget/config?identifier=telegram-identifier-1')).status).to.equal(404);
    });
  });

  describe('CORS', () => {
    it('allows any origin without credentials on /api/v1/widget/*, errors and preflights included, and nowhere else', async () => {
      const origin = { Origin: 'https://loja.exemplo.com.br' };
      const ok = await api.request('GET', `/api/v1/widget/config?identifier=${widget.identifier}`, { headers: origin });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('*');
      expect(ok.headers.get('access-control-allow-credentials')).to.equal(null);
      const missing = await api.request('GET', `/api/v1/widget/config?identifier=${'b'.repeat(32)}`, { headers: origin });
      expect(missing.headers.get('access-control-allow-origin')).to.equal('*');
      const malformed = await api.request('POST', '/api/v1/widget/messages', { rawBody: '{"content":', headers: origin });
      expect(malformed.status).to.equal(400);
      expect(malformed.headers.get('access-control-allow-origin')).to.equal('*');

      const preflight = await api.request('OPTIONS', '/api/v1/widget/messages', {
        headers: { ...origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
      expect(preflight.headers.get('access-control-allow-methods')).to.contain('POST');
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).to.contain('authorization');

      const operatorApi = await api.request('GET', '/api/integrations/channel', { token: owner.token, headers: origin });
      expect(operatorApi.headers.get('access-control-allow-origin')).to.equal(null);
      const other = await api.request('OPTIONS', '/api/integrations/channel', { headers: { ...origin, 'Access-Control-Request-Method': 'GET' } });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });

  describe('messages', () => {
    it('a first contact creates a visitor with a random session token, stored only hashed, and a conversation in the inbox', async () => {
      const res = await post(message('Olá, tudo bem?', { sender: 'Carla' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const { message: msg, visitor } = res.body.data;
      expect(visitor.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(visitor.token).to.be.a('string').and.match(/^[A-Za-z0-9_-]{43}$/);
      expect(msg).to.deep.include({ content: [{ insert: 'Olá, tudo bem?\n' }], type: 0, sender: 'customer', operator: null });

      const stored = await api.deps.knex('widget_visitors').where({ visitorId: visitor.id }).first();
      expect(stored.tokenHash).to.equal(createHash('sha256').update(visitor.token).digest('hex'));
      expect(JSON.stringify(stored)).to.not.contain(visitor.token);
      expect(stored.channelId).to.equal(widget.id);

      const cp = await api.deps.knex('customer_platforms as cp').join('customers as c', 'c.id', 'cp.customer_id').where({ 'cp.channel_id': widget.id, 'cp.external_id': visitor.id }).first('cp.id', 'c.name', 'cp.has_new_messages');
      expect(cp).to.include({ name: 'Carla', hasNewMessages: true });
      const rows = await api.deps.knex('messages').where({ customerPlatformId: cp.id });
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ text: 'Olá, tudo bem?', sender: 'customer', type: 0 });
    });

    it('later messages with the visitor token go to the same conversation and hand out no new token', async () => {
      const visitor = await firstContact(api, widget, 'Primeira');
      const res = await post(message([{ insert: 'Segunda ' }, { insert: 'mensagem', attributes: { bold: true } }]), visitor.token);
      expect(res.status).to.equal(201);
      expect(res.body.data.visitor).to.deep.equal({ id: visitor.id });
      expect(res.body.data.message.content).to.deep.equal([{ insert: 'Segunda mensagem\n' }]);
      const count = await api.deps.knex('messages').where({ customerPlatformId: visitor.conversationId }).count({ n: '*' });
      expect(Number(count[0].n)).to.equal(2);
      const name = await api.deps.knex('customers').join('customer_platforms as cp', 'cp.customer_id', 'customers.id').where('cp.id', visitor.conversationId).first('customers.name');
      expect(name.name).to.match(/^Visitante [0-9A-F]{4}$/);
    });

    it('a retried POST with the same client message id stores the message once and answers the same message', async () => {
      const visitor = await firstContact(api, widget);
      const body = message('Pode me ajudar?', { clientMessageId: 'cli-123456789' });
      const first = await post(body, visitor.token);
      const again = await post(body, visitor.token);
      expect(again.status).to.equal(201);
      expect(again.body.data.message.id).to.equal(first.body.data.message.id);
      const rows = await api.deps.knex('messages').where({ customerPlatformId: visitor.conversationId, text: 'Pode me ajudar?' });
      expect(rows).to.have.length(1);
      // Another visitor may use the same client id: ids are the visitor's own.
      const other = await firstContact(api, widget);
      const theirs = await post(body, other.token);
      expect(theirs.body.data.message.id).to.not.equal(first.body.data.message.id);
    });

    it('GET answers the visitor’s conversation oldest first, never private notes nor system lines, with the agent’s name', async () => {
      const visitor = await firstContact(api, widget, 'Oi');
      const note = await insertMessage(api, visitor.conversationId, { type: 2, sender: 'operator', text: 'cliente chato, cuidado', operatorId: owner.id });
      const system = await insertMessage(api, visitor.conversationId, { type: 1, sender: 'system', text: 'Conversa transferida' });
      const reply = await insertMessage(api, visitor.conversationId, { type: 0, sender: 'operator', text: 'Bom dia! Como posso ajudar?', operatorId: owner.id });
      const bot = await insertMessage(api, visitor.conversationId, { type: 3, sender: 'bot', text: 'Escolha uma opção' });

      const res = await api.request('GET', '/api/v1/widget/messages', { token: visitor.token });
      expect(res.status).to.equal(200);
      const ids = res.body.data.map((m: { id: number }) => m.id);
      expect(ids).to.not.include(note);
      expect(ids).to.not.include(system);
      expect(ids.slice(1)).to.deep.equal([reply, bot]);
      expect(JSON.stringify(res.body)).to.not.contain('cliente chato');
      const answer = res.body.data[1];
      expect(answer).to.deep.include({ sender: 'operator', type: 0, content: [{ insert: 'Bom dia! Como posso ajudar?\n' }], operator: { name: 'Bruna Atendente', avatar: null } });
      expect(answer.operator).to.not.have.property('email');

      const after = await api.request('GET', `/api/v1/widget/messages?after=${reply}`, { token: visitor.token });
      expect(after.body.data.map((m: { id: number }) => m.id)).to.deep.equal([bot]);
      const before = await api.request('GET', `/api/v1/widget/messages?before=${bot}&limit=1`, { token: visitor.token });
      expect(before.body.data.map((m: { id: number }) => m.id)).to.deep.equal([reply]);
    });

    it('pages back past a message written in the same millisecond as the cursor (the cursor is compared in SQL, to the microsecond)', async () => {
      const visitor = await firstContact(api, widget, 'Oi');
      const reply = await insertMessage(api, visitor.conversationId, { type: 0, sender: 'operator', text: 'Um instante', operatorId: owner.id });
      const bot = await insertMessage(api, visitor.conversationId, { type: 3, sender: 'bot', text: 'Escolha uma opção' });
      await api.deps.knex('messages').where({ id: reply }).update({ createdAt: api.deps.knex.raw("'2030-01-01 10:00:00.123100+00'") });
      await api.deps.knex('messages').where({ id: bot }).update({ createdAt: api.deps.knex.raw("'2030-01-01 10:00:00.123456+00'") });
      const before = await api.request('GET', `/api/v1/widget/messages?before=${bot}&limit=1`, { token: visitor.token });
      expect(before.body.data.map((m: { id: number }) => m.id)).to.deep.equal([reply]);
      // A message of another conversation as the cursor: nothing.
      const other = await firstContact(api, widget, 'Olá');
      const foreign = await api.request('GET', `/api/v1/widget/messages?before=${bot}`, { token: other.token });
      expect(foreign.body.data).to.deep.equal([]);
    });

    it('refuses bad input, every failing field at once: oversized or empty content, wrong type, long sender, object or array tokens', async () => {
      const big = await post(message('x'.repeat(4001)));
      expect(big.status).to.equal(400);
      expect(big.body.errors[0]).to.include({ key: 'content' });
      expect(big.body.errors[0].descriptions[0]).to.equal('A mensagem deve ter no máximo 4000 caracteres.');
      expect((await post(message([{ insert: 'y'.repeat(2001) }, { insert: 'z'.repeat(2000) }]))).status, 'ops count together').to.equal(400);
      expect(keys(await post(message('   ')))).to.deep.equal(['content']);
      expect(keys(await post(message([{ insert: { image: 'https://x' } }])))).to.deep.equal(['content']);

      const many = await post({ content: 5, type: 'image', identifier: '', sender: 's'.repeat(121) });
      expect(keys(many)).to.deep.equal(['content', 'identifier', 'sender', 'type']);

      expect(keys(await post(message('Oi', { token: { $ne: null } })))).to.deep.equal(['token']);
      expect(keys(await post(message('Oi', { token: ['a'.repeat(43)] })))).to.deep.equal(['token']);
      expect(keys(await post(message('Oi', { clientMessageId: { id: 1 } })))).to.deep.equal(['clientMessageId']);
      expect((await post([message('Oi')])).status).to.equal(400);
      expect(await api.deps.knex('widget_visitors').where({ channelId: widget.id }).count({ n: '*' }).then((r) => Number(r[0].n))).to.be.greaterThan(0);
    });

    it('is 404 for an unknown widget and 401 for an unknown token, a token of another widget or a missing one', async () => {
      expect((await post(message('Oi', { identifier: 'c'.repeat(32) }))).status).to.equal(404);
      const visitor = await firstContact(api, widget);
      const foreign = await firstContact(api, otherWidget);

      expect((await post(message('Oi'), 'A'.repeat(43))).status).to.equal(401);
      expect((await post(message('Oi'), foreign.token)).status, 'token of another workspace’s widget').to.equal(401);
      expect((await post(message('Oi', { token: foreign.token }))).status).to.equal(401);
      expect((await api.request('GET', '/api/v1/widget/messages')).status).to.equal(401);
      expect((await api.request('GET', '/api/v1/widget/messages', { token: 'x'.repeat(43) })).status).to.equal(401);
      // The foreign visitor reads their own conversation only.
      const theirs = await api.request('GET', '/api/v1/widget/messages', { token: foreign.token });
      expect(theirs.body.data).to.have.length(1);
      const ours = await api.request('GET', '/api/v1/widget/messages', { token: visitor.token });
      expect(ours.body.data.map((m: { id: number }) => m.id)).to.not.include(theirs.body.data[0].id);

      // Deleting the channel ends its visitors' sessions.
      const ws = await makeWorkspace(api.deps.knex);
      const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const doomed = await makeWidget(api, boss);
      const gone = await firstContact(api, doomed);
      await api.request('DELETE', `/api/integrations/widget/${doomed.id}`, { token: boss.token });
      expect((await api.request('GET', '/api/v1/widget/messages', { token: gone.token })).status).to.equal(401);
    });
  });

  describe('rate limits', () => {
    it('holds first contacts per address (429 with Retry-After of minutes after 10 in 10 minutes) but not a known visitor’s messages', async () => {
      let visitor;
      for (let i = 0; i < 10; i++) visitor = await firstContact(api, widget, `Oi ${i}`);
      const refused = await post(message('Mais um'));
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 600);
      expect(refused.headers.get('access-control-allow-origin')).to.equal('*');
      expect((await post(message('Continuo aqui'), visitor!.token)).status).to.equal(201);
    });

    it('holds one visitor to 30 messages a minute', async () => {
      const visitor = await firstContact(api, widget);
      for (let i = 0; i < 30; i++) expect((await post(message(`m${i}`), visitor.token)).status).to.equal(201);
      expect((await post(message('demais'), visitor.token)).status).to.equal(429);
      const other = await firstContact(api, widget);
      expect((await post(message('outro visitante'), other.token)).status).to.equal(201);
    });
  });

  describe('files', () => {
    const sendFile = async (token: string | undefined, bytes: Buffer, name: string, field = 'file') => {
      const form = new FormData();
      form.append(field, new Blob([bytes], { type: 'application/octet-stream' }), name);
      const res = await fetch(`${api.url}/api/v1/widget/files`, { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };

    it('stores a visitor’s file as a file message with a signed download URL', async () => {
      const visitor = await firstContact(api, widget);
      const res = await sendFile(visitor.token, PNG_1x1, 'foto.png');
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const item = res.body.data.message.content[0];
      expect(item.file).to.include({ fileName: 'foto.png', mime: 'image/png', size: PNG_1x1.length });
      expect(item.file.url).to.match(/\/api\/assets\/download\/[^?]+\?exp=\d+&sig=/);
      expect(item.file).to.not.have.property('key');
      const got = await download(api, item.file.url);
      expect(got.status).to.equal(200);
      expect(got.bytes.equals(PNG_1x1)).to.equal(true);

      const row = await api.deps.knex('messages').where({ id: res.body.data.message.id }).first('is_media', 'sender', 'customer_platform_id');
      expect(row).to.include({ isMedia: true, sender: 'customer', customerPlatformId: visitor.conversationId });
      const listed = await api.request('GET', '/api/v1/widget/messages', { token: visitor.token });
      expect(listed.body.data.at(-1).content[0].file.fileName).to.equal('foto.png');
    });

    it('needs a visitor token and refuses files over 16 MB (413)', async () => {
      expect((await sendFile(undefined, PNG_1x1, 'foto.png')).status).to.equal(401);
      const visitor = await firstContact(api, widget);
      const big = await sendFile(visitor.token, Buffer.alloc(16 * 1024 * 1024 + 1, 1), 'grande.bin');
      expect(big.status).to.equal(413);
      expect(big.headers.get('access-control-allow-origin')).to.equal('*');
    });
  });
});
