import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { makeChannel, makeConversation, makeCustomer, makeGroup, makeMessage, makeTeam } from './rows';

describe('contacts: /api/inbox/customer, /api/inbox/media-messages, /api/customer/*', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;
  let channel: { id: number };
  let hiddenGroup: { id: number };

  const make = (level: AccessLevelValue, workspace = ws) => makeOperator(api.deps.knex, api.config.jwtSecret, workspace, level);
  const knex = () => api.deps.knex;
  const keysOf = (body: { errors: { key: string }[] }) => body.errors.map((e) => e.key).sort();
  const descriptionsOf = (body: { errors: { key: string; descriptions: string[] }[] }) => Object.fromEntries(body.errors.map((e) => [e.key, e.descriptions]));

  /** A contact with one conversation everyone in the workspace may see (unassigned, no group). */
  const visibleCustomer = async (fields: Parameters<typeof makeCustomer>[2] = {}) => {
    const customer = await makeCustomer(knex(), ws.id, fields);
    const conversation = await makeConversation(knex(), ws.id, channel.id, customer.id);
    return { ...customer, conversation };
  };

  before(async () => {
    api = await startTestApi();
    ({ ws, owner, master, agent, stranger } = await makeTeam(knex(), api.config.jwtSecret));
    channel = await makeChannel(knex(), ws.id, 'widget');
    hiddenGroup = await makeGroup(knex(), ws.id, [owner.id]);
  });
  after(() => api.close());

  describe('GET /inbox/customer/:id', () => {
    it('answers the Customer with properties, channels and call history in the contract shape', async () => {
      const customer = await makeCustomer(knex(), ws.id, { name: 'Ana Souza', phone: '+5511999990000', email: 'ana@exemplo.com.br', details: 'Cliente antiga' });
      const telegram = await makeChannel(knex(), ws.id, 'telegram');
      const first = await makeConversation(knex(), ws.id, channel.id, customer.id, { finished: true });
      const second = await makeConversation(knex(), ws.id, telegram.id, customer.id);
      await knex()('customer_properties').insert({ workspaceId: ws.id, customerId: customer.id, label: 'Cidade', code: 'cidade', value: 'Recife' });

      const res = await api.request('GET', `/api/inbox/customer/${customer.id}`, { token: agent.token });
      expect(res.status).to.equal(200);
      const c = res.body.data;
      expect(Object.keys(c).sort()).to.deep.equal(['avatar', 'calls', 'channels', 'createdAt', 'details', 'email', 'id', 'lastViewed', 'name', 'phone', 'properties', 'sessionsCount']);
      expect(c).to.deep.include({ id: customer.id, name: 'Ana Souza', phone: '+5511999990000', email: 'ana@exemplo.com.br', details: 'Cliente antiga', sessionsCount: 2 });
      expect(c.properties).to.have.length(1);
      expect(c.properties[0]).to.deep.include({ label: 'Cidade', code: 'cidade', value: 'Recife' });
      expect(c.channels.map((ch: { customerPlatformId: number; platformId: number; description: string; pendingMerge: boolean }) => [ch.customerPlatformId, ch.platformId, ch.description, ch.pendingMerge])).to.deep.equal([
        [first.id, 4, 'Canal widget', false],
        [second.id, 2, 'Canal telegram', false],
      ]);
      expect(c.channels[0].Call).to.deep.include({ id: first.callId, protocol: first.protocol, isFinished: true });
      expect(c.calls.map((k: { id: number; protocol: number; customerPlatformId: number; isFinished: boolean }) => [k.id, k.protocol, k.customerPlatformId, k.isFinished])).to.deep.equal([
        [second.callId, second.protocol, second.id, false],
        [first.callId, first.protocol, first.id, true],
      ]);
      expect(c.calls[0]).to.have.all.keys('id', 'customerPlatformId', 'operatorId', 'protocol', 'createdAt', 'finishedAt', 'isFinished', 'csat');
    });

    it('shows only the channels and calls of conversations the caller may see, and 404 when none is visible', async () => {
      const customer = await makeCustomer(knex(), ws.id);
      const open = await makeConversation(knex(), ws.id, channel.id, customer.id);
      const inGroup = await makeConversation(knex(), ws.id, (await makeChannel(knex(), ws.id)).id, customer.id, { groupId: hiddenGroup.id });

      const forAgent = (await api.request('GET', `/api/inbox/customer/${customer.id}`, { token: agent.token })).body.data;
      expect(forAgent.channels.map((ch: { customerPlatformId: number }) => ch.customerPlatformId)).to.deep.equal([open.id]);
      expect(forAgent.calls.map((k: { id: number }) => k.id)).to.deep.equal([open.callId]);
      expect(forAgent.sessionsCount).to.equal(1);
      const forOwner = (await api.request('GET', `/api/inbox/customer/${customer.id}`, { token: owner.token })).body.data;
      expect(forOwner.channels.map((ch: { customerPlatformId: number }) => ch.customerPlatformId)).to.deep.equal([open.id, inGroup.id]);

      const hidden = await makeCustomer(knex(), ws.id, { name: 'Escondida' });
      await makeConversation(knex(), ws.id, channel.id, hidden.id, { groupId: hiddenGroup.id });
      for (const op of [agent, master]) {
        const res = await api.request('GET', `/api/inbox/customer/${hidden.id}`, { token: op.token });
        expect(res.status).to.equal(404);
        expect(res.body.errors[0].type).to.equal('NotFoundError');
        expect((await api.request('PUT', `/api/inbox/customer/${hidden.id}`, { token: op.token, body: { name: 'x' } })).status).to.equal(404);
        expect((await api.request('POST', `/api/inbox/customer/${hidden.id}/properties`, { token: op.token, body: { label: 'A', value: 'b' } })).status).to.equal(404);
        expect((await api.request('GET', `/api/inbox/media-messages?id=${hidden.id}`, { token: op.token })).status).to.equal(404);
      }
      expect((await knex()('customers').where({ id: hidden.id }).first()).name).to.equal('Escondida');
      expect(await knex()('customer_properties').where({ customerId: hidden.id })).to.have.length(0);
      expect((await api.request('GET', `/api/inbox/customer/${hidden.id}`, { token: owner.token })).status).to.equal(200);
      // A contact without any conversation (imported on the Contacts page) is reachable at level 6+ only.
      const lonely = await makeCustomer(knex(), ws.id);
      expect((await api.request('GET', `/api/inbox/customer/${lonely.id}`, { token: agent.token })).status).to.equal(404);
      expect((await api.request('GET', `/api/inbox/customer/${lonely.id}`, { token: master.token })).status).to.equal(200);
    });

    it('answers 404 for ids that cannot exist and 401 without a token', async () => {
      expect((await api.request('GET', '/api/inbox/customer/abc', { token: owner.token })).status).to.equal(404);
      expect((await api.request('GET', '/api/inbox/customer/0', { token: owner.token })).status).to.equal(404);
      expect((await api.request('GET', '/api/inbox/customer/1')).status).to.equal(401);
    });
  });

  describe('PUT /inbox/customer/:id', () => {
    it('validates every field at once with pt-BR messages', async () => {
      const c = await visibleCustomer({ name: 'Original' });
      const res = await api.request('PUT', `/api/inbox/customer/${c.id}`, {
        token: agent.token,
        body: { name: 'n'.repeat(256), email: 'não-é-email', phone: '11 9999-abcd', details: 'd'.repeat(5001) },
      });
      expect(res.status).to.equal(400);
      expect(keysOf(res.body)).to.deep.equal(['details', 'email', 'name', 'phone']);
      expect(descriptionsOf(res.body).email).to.deep.equal(['E-mail inválido.']);
      expect((await api.request('PUT', `/api/inbox/customer/${c.id}`, { token: agent.token, body: { phone: '+'.padEnd(33, '1') } })).status).to.equal(400);
      expect((await api.request('PUT', `/api/inbox/customer/${c.id}`, { token: agent.token, body: { name: 5 } })).status).to.equal(400);
      expect((await knex()('customers').where({ id: c.id }).first()).name).to.equal('Original');
    });

    it('writes the sent fields only, normalises phone and e-mail, and clears a field sent empty', async () => {
      const c = await visibleCustomer({ name: 'Bruno', email: 'bruno@old.com', details: 'Antes' });
      const res = await api.request('PUT', `/api/inbox/customer/${c.id}`, {
        token: agent.token,
        body: { phone: '+55 (11) 91234-5678', email: 'Bruno@Exemplo.COM.br', details: '', workspaceId: stranger.workspaceId, id: 999 },
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ id: c.id, name: 'Bruno', phone: '+5511912345678', email: 'bruno@exemplo.com.br', details: null });
      const row = await knex()('customers').where({ id: c.id }).first();
      expect(row).to.include({ workspaceId: ws.id, name: 'Bruno', phone: '+5511912345678' });
    });
  });

  describe('custom properties', () => {
    it('requires name and value (SPEC §5) and refuses names without letters or taken by fixed fields', async () => {
      const c = await visibleCustomer();
      const path = `/api/inbox/customer/${c.id}/properties`;
      const empty = await api.request('POST', path, { token: agent.token, body: {} });
      expect(empty.status).to.equal(400);
      expect(descriptionsOf(empty.body)).to.deep.equal({ label: ['O nome da propriedade é obrigatório.'], value: ['O valor da propriedade é obrigatório.'] });
      expect(keysOf((await api.request('POST', path, { token: agent.token, body: { label: '  ', value: '  ' } })).body)).to.deep.equal(['label', 'value']);
      expect(descriptionsOf((await api.request('POST', path, { token: agent.token, body: { label: '123', value: 'x' } })).body).label).to.deep.equal(['O nome da propriedade precisa conter letras.']);
      expect((await api.request('POST', path, { token: agent.token, body: { label: 'E-mail', value: 'x' } })).status).to.equal(400);
      expect((await api.request('POST', path, { token: agent.token, body: { label: 'a', value: 'v'.repeat(501) } })).status).to.equal(400);
      expect(await knex()('customer_properties').where({ customerId: c.id })).to.have.length(0);
    });

    it('derives a lowercase-letters code from the name, keeps it unique per contact, edits by id and deletes', async () => {
      const c = await visibleCustomer();
      const path = `/api/inbox/customer/${c.id}/properties`;
      const added = await api.request('POST', path, { token: agent.token, body: { label: 'Cidade Natal 2', value: 'São Paulo' } });
      expect(added.status).to.equal(200);
      const [prop] = added.body.data.properties;
      expect(prop).to.deep.include({ label: 'Cidade Natal 2', code: 'cidadenatal', value: 'São Paulo' });

      const accented = await api.request('POST', path, { token: agent.token, body: { label: 'Órgão_Público', value: 'Detran' } });
      expect(accented.body.data.properties.map((p: { code: string }) => p.code)).to.deep.equal(['cidadenatal', 'orgaopublico']);

      const dup = await api.request('POST', path, { token: agent.token, body: { label: 'cidade-natal', value: 'Recife' } });
      expect(dup.status).to.equal(409);
      expect(dup.body.errors[0]).to.include({ type: 'ConflictError', key: 'label' });

      const edited = await api.request('POST', path, { token: agent.token, body: { id: prop.id, label: 'Cidade natal', value: 'Recife' } });
      expect(edited.status).to.equal(200);
      expect(edited.body.data.properties[0]).to.deep.include({ id: prop.id, code: 'cidadenatal', value: 'Recife' });
      const clash = await api.request('POST', path, { token: agent.token, body: { id: prop.id, label: 'Órgão público', value: 'x' } });
      expect(clash.status).to.equal(409);

      const other = await visibleCustomer();
      const foreignProp = (await api.request('POST', `/api/inbox/customer/${other.id}/properties`, { token: agent.token, body: { label: 'Plano', value: 'Ouro' } })).body.data.properties[0];
      expect((await api.request('POST', path, { token: agent.token, body: { id: foreignProp.id, label: 'Plano', value: 'roubado' } })).status).to.equal(404);
      expect((await api.request('DELETE', `${path}/${foreignProp.id}`, { token: agent.token })).status).to.equal(404);
      expect((await knex()('customer_properties').where({ id: foreignProp.id }).first()).value).to.equal('Ouro');

      const del = await api.request('DELETE', `${path}/${prop.id}`, { token: agent.token });
      expect(del.status).to.equal(200);
      expect(del.body.data.properties.map((p: { code: string }) => p.code)).to.deep.equal(['orgaopublico']);
      expect((await api.request('DELETE', `${path}/${prop.id}`, { token: agent.token })).status).to.equal(404);
    });
  });

  describe('GET /inbox/media-messages', () => {
    it("lists the contact's undeleted files from visible conversations, newest first, 30 per page, with signed URLs", async () => {
      const customer = await makeCustomer(knex(), ws.id);
      const a = await makeConversation(knex(), ws.id, channel.id, customer.id);
      const hidden = await makeConversation(knex(), ws.id, (await makeChannel(knex(), ws.id)).id, customer.id, { groupId: hiddenGroup.id });
      const file = (n: number) => ({ key: `chave${String(n).padStart(6, '0')}`, fileName: `f${n}.png`, mime: 'image/png', size: 10 });
      const t0 = Date.now() - 3600_000;
      const ids: number[] = [];
      for (let i = 0; i < 32; i++) ids.push((await makeMessage(knex(), ws.id, a, { media: file(i), createdAt: new Date(t0 + i * 1000) })).id);
      await makeMessage(knex(), ws.id, a, { text: 'só texto', createdAt: new Date(t0 + 100_000) });
      await makeMessage(knex(), ws.id, a, { media: file(98), deleted: true, createdAt: new Date(t0 + 100_000) });
      const hiddenMedia = await makeMessage(knex(), ws.id, hidden, { media: file(99), createdAt: new Date(t0 + 200_000) });

      const page = await api.request('GET', `/api/inbox/media-messages?id=${customer.id}`, { token: agent.token });
      expect(page.status).to.equal(200);
      expect(page.body.matchCount).to.equal(32);
      expect(page.body.data).to.have.length(30);
      expect(page.body.data.map((m: { id: number }) => m.id)).to.deep.equal(ids.slice().reverse().slice(0, 30));
      const first = page.body.data[0];
      expect(first).to.include({ isMedia: true, isDeleted: false, customerPlatformId: a.id });
      expect(first.content[0].file).to.include({ key: file(31).key, fileName: 'f31.png' });
      expect(first.content[0].file.url).to.match(/\/api\/assets\/download\/chave000031\?exp=\d+&sig=/);

      const next = await api.request('GET', `/api/inbox/media-messages?id=${customer.id}&offset=30&limit=30`, { token: agent.token });
      expect(next.body.data.map((m: { id: number }) => m.id)).to.deep.equal([ids[1], ids[0]]);
      const forOwner = await api.request('GET', `/api/inbox/media-messages?id=${customer.id}&limit=1`, { token: owner.token });
      expect(forOwner.body.matchCount).to.equal(33);
      expect(forOwner.body.data[0].id).to.equal(hiddenMedia.id);
    });

    it('rejects a missing or malformed id and bad paging, and answers 404 for a foreign contact', async () => {
      expect(keysOf((await api.request('GET', '/api/inbox/media-messages', { token: agent.token })).body)).to.deep.equal(['id']);
      expect((await api.request('GET', '/api/inbox/media-messages?id=abc', { token: agent.token })).status).to.equal(400);
      const c = await visibleCustomer();
      expect(keysOf((await api.request('GET', `/api/inbox/media-messages?id=${c.id}&limit=-1&offset=x`, { token: agent.token })).body)).to.deep.equal(['limit', 'offset']);
      expect((await api.request('GET', `/api/inbox/media-messages?id=${c.id}`, { token: stranger.token })).status).to.equal(404);
    });
  });

  describe('PUT /customer/merge-customer', () => {
    it('is for level 6 and up only, with the MASTER notice', async () => {
      const [stay, leave] = [await visibleCustomer(), await visibleCustomer()];
      const res = await api.request('PUT', '/api/customer/merge-customer', { token: agent.token, body: { stayId: stay.id, leaveId: leave.id } });
      expect(res.status).to.equal(403);
      expect(res.body.errors[0]).to.deep.include({ type: 'ForbiddenError', descriptions: ['Esta ação só pode ser feita como MASTER.'] });
      expect(await knex()('customers').where({ id: leave.id }).first()).to.not.equal(undefined);
    });

    it('moves channels and properties to stayId, fills its empty fields, keeps its own property on a code clash and deletes leaveId', async () => {
      const stay = await visibleCustomer({ name: 'Carla', email: null, phone: null });
      const leave = await visibleCustomer({ name: 'Carla S.', email: 'carla@exemplo.com', phone: '+5581988887777', details: 'VIP' });
      const leaveSecond = await makeConversation(knex(), ws.id, (await makeChannel(knex(), ws.id, 'telegram')).id, leave.id);
      await knex()('customer_properties').insert([
        { workspaceId: ws.id, customerId: stay.id, label: 'Plano', code: 'plano', value: 'Ouro' },
        { workspaceId: ws.id, customerId: leave.id, label: 'Plano', code: 'plano', value: 'Prata' },
        { workspaceId: ws.id, customerId: leave.id, label: 'Cidade', code: 'cidade', value: 'Recife' },
      ]);
      await makeMessage(knex(), ws.id, leave.conversation, { text: 'mensagem antiga' });

      const res = await api.request('PUT', '/api/customer/merge-customer', { token: master.token, body: { stayId: stay.id, leaveId: leave.id } });
      expect(res.status).to.equal(200);
      const merged = res.body.data;
      expect(merged).to.deep.include({ id: stay.id, name: 'Carla', email: 'carla@exemplo.com', phone: '+5581988887777', details: 'VIP', sessionsCount: 3 });
      expect(merged.channels.map((ch: { customerPlatformId: number }) => ch.customerPlatformId)).to.deep.equal([stay.conversation.id, leave.conversation.id, leaveSecond.id]);
      expect(merged.properties.map((p: { code: string; value: string }) => [p.code, p.value])).to.deep.equal([
        ['plano', 'Ouro'],
        ['cidade', 'Recife'],
      ]);
      expect(await knex()('customers').where({ id: leave.id }).first()).to.equal(undefined);
      expect(await knex()('customer_platforms').where({ customerId: stay.id }).pluck('id')).to.have.members([stay.conversation.id, leave.conversation.id, leaveSecond.id]);
      // Messages and calls stay with their conversation.
      expect(await knex()('messages').where({ customerPlatformId: leave.conversation.id })).to.have.length(1);
      expect((await api.request('GET', `/api/inbox/customer/${leave.id}`, { token: owner.token })).status).to.equal(404);
    });

    it('validates the pair and answers 404, changing nothing, for a foreign or invisible contact', async () => {
      const a = await visibleCustomer();
      const empty = await api.request('PUT', '/api/customer/merge-customer', { token: master.token, body: {} });
      expect(keysOf(empty.body)).to.deep.equal(['leaveId', 'stayId']);
      const same = await api.request('PUT', '/api/customer/merge-customer', { token: master.token, body: { stayId: a.id, leaveId: a.id } });
      expect(same.status).to.equal(400);
      expect(descriptionsOf(same.body).leaveId).to.deep.equal(['Escolha dois contatos diferentes.']);

      const otherWs = stranger.workspaceId;
      const foreign = await makeCustomer(knex(), otherWs);
      await makeConversation(knex(), otherWs, (await makeChannel(knex(), otherWs)).id, foreign.id);
      for (const body of [{ stayId: a.id, leaveId: foreign.id }, { stayId: foreign.id, leaveId: a.id }]) {
        expect((await api.request('PUT', '/api/customer/merge-customer', { token: owner.token, body })).status).to.equal(404);
      }
      expect((await api.request('PUT', '/api/customer/merge-customer', { token: stranger.token, body: { stayId: foreign.id, leaveId: a.id } })).status).to.equal(404);
      const inHiddenGroup = await makeCustomer(knex(), ws.id);
      await makeConversation(knex(), ws.id, channel.id, inHiddenGroup.id, { groupId: hiddenGroup.id });
      expect((await api.request('PUT', '/api/customer/merge-customer', { token: master.token, body: { stayId: a.id, leaveId: inHiddenGroup.id } })).status).to.equal(404);
      expect(await knex()('customers').whereIn('id', [a.id, foreign.id, inHiddenGroup.id])).to.have.length(3);
      expect(await knex()('customer_platforms').where({ customerId: foreign.id })).to.have.length(1);
    });
  });

  describe('GET /customer/all-customers and /customer/properties', () => {
    it('searches visible contacts by name, phone or e-mail, 30 by default, in both list dialects', async () => {
      const w = await makeWorkspace(knex());
      const ch = await makeChannel(knex(), w.id);
      const group = await makeGroup(knex(), w.id);
      const op = await make(3, w);
      const add = async (fields: Parameters<typeof makeCustomer>[2], groupId: number | null = null) => {
        const c = await makeCustomer(knex(), w.id, fields);
        await makeConversation(knex(), w.id, ch.id, c.id, { groupId });
        return c;
      };
      const dani = await add({ name: 'Daniela Lima', phone: '+5511977776666', email: 'dani@exemplo.com' });
      const edu = await add({ name: 'Eduardo', phone: '+5521900001111', email: 'edu@loja.com' });
      await add({ name: 'Daniel Oculto' }, group.id);
      for (let i = 0; i < 31; i++) await add({ name: `Pessoa ${i}` });

      const byName = await api.request('GET', '/api/customer/all-customers?query=dani', { token: op.token });
      expect(byName.body.data.map((c: { id: number }) => c.id)).to.deep.equal([dani.id]);
      expect(byName.body.data[0]).to.have.all.keys('id', 'name', 'phone', 'email', 'avatar');
      expect(byName.body).to.include({ matchCount: 1, totalCount: 33 });
      expect((await api.request('GET', '/api/customer/all-customers?query=21900', { token: op.token })).body.data.map((c: { id: number }) => c.id)).to.deep.equal([edu.id]);
      expect((await api.request('GET', '/api/customer/all-customers?query=LOJA.com', { token: op.token })).body.data.map((c: { id: number }) => c.id)).to.deep.equal([edu.id]);
      expect((await api.request('GET', '/api/customer/all-customers?query=%25', { token: op.token })).body.data).to.have.length(0);
      expect((await api.request('GET', '/api/customer/all-customers', { token: op.token })).body.data).to.have.length(30);
      const ra = await api.request('GET', `/api/customer/all-customers?sort=${encodeURIComponent('["name","ASC"]')}&range=${encodeURIComponent('[0,1]')}&filter=${encodeURIComponent('{"q":"e"}')}`, { token: op.token });
      expect(ra.body.map((c: { name: string }) => c.name)).to.deep.equal(['Daniela Lima', 'Eduardo']);
      expect((await api.request('GET', '/api/customer/all-customers?limit=x', { token: op.token })).status).to.equal(400);
      expect((await api.request('GET', '/api/customer/all-customers', { token: stranger.token })).body.data.map((c: { id: number }) => c.id)).to.not.include(dani.id);
    });

    it('suggests distinct property/value pairs of visible contacts', async () => {
      const w = await makeWorkspace(knex());
      const ch = await makeChannel(knex(), w.id);
      const group = await makeGroup(knex(), w.id);
      const op = await make(3, w);
      const add = async (props: [string, string][], groupId: number | null = null) => {
        const c = await makeCustomer(knex(), w.id);
        await makeConversation(knex(), w.id, ch.id, c.id, { groupId });
        for (const [code, value] of props) await knex()('customer_properties').insert({ workspaceId: w.id, customerId: c.id, label: code, code, value });
      };
      await add([['cidade', 'Recife'], ['plano', 'Ouro']]);
      await add([['cidade', 'Recife'], ['plano', 'Prata']]);
      await add([['cidade', 'Olinda']]);
      await add([['cidade', 'Segredo']], group.id);

      const names = await api.request('GET', '/api/customer/properties?property=CID', { token: op.token });
      expect(names.body.data).to.deep.equal([{ property: 'cidade', value: null }]);
      const all = await api.request('GET', '/api/customer/properties?property=', { token: op.token });
      expect(all.body.data).to.deep.equal([
        { property: 'cidade', value: null },
        { property: 'plano', value: null },
      ]);
      // An exact name also brings its values, for an empty value field.
      const exact = await api.request('GET', '/api/customer/properties?property=cidade', { token: op.token });
      expect(exact.body.data).to.deep.equal([
        { property: 'cidade', value: null },
        { property: 'cidade', value: 'Olinda' },
        { property: 'cidade', value: 'Recife' },
      ]);
      const values = await api.request('GET', '/api/customer/properties?property=plano&value=o', { token: op.token });
      expect(values.body.data).to.deep.equal([{ property: 'plano', value: 'Ouro' }]);
      expect((await api.request('GET', '/api/customer/properties?property=cidade&value=&limit=1', { token: op.token })).body.data).to.deep.equal([{ property: 'cidade', value: 'Olinda' }]);
      expect(keysOf((await api.request('GET', '/api/customer/properties', { token: op.token })).body)).to.deep.equal(['property']);
      expect((await api.request('GET', '/api/customer/properties?property=cidade', { token: stranger.token })).body.data).to.deep.equal([]);
      expect((await api.request('GET', '/api/customer/properties?property=cidade&limit=x', { token: op.token })).status).to.equal(400);
    });
  });

  it("answers 404 to another workspace's contact on every call and changes nothing", async () => {
    const c = await visibleCustomer({ name: 'Minha' });
    const prop = (await api.request('POST', `/api/inbox/customer/${c.id}/properties`, { token: owner.token, body: { label: 'Plano', value: 'Ouro' } })).body.data.properties[0];
    const calls: [string, string, unknown][] = [
      ['GET', `/api/inbox/customer/${c.id}`, undefined],
      ['PUT', `/api/inbox/customer/${c.id}`, { name: 'Roubada' }],
      ['POST', `/api/inbox/customer/${c.id}/properties`, { label: 'Invasor', value: 'x' }],
      ['POST', `/api/inbox/customer/${c.id}/properties`, { id: prop.id, label: 'Plano', value: 'Lata' }],
      ['DELETE', `/api/inbox/customer/${c.id}/properties/${prop.id}`, undefined],
      ['GET', `/api/inbox/media-messages?id=${c.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, { token: stranger.token, body });
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
    expect((await knex()('customers').where({ id: c.id }).first()).name).to.equal('Minha');
    expect(await knex()('customer_properties').where({ customerId: c.id }).pluck('value')).to.deep.equal(['Ouro']);
  });
});
