import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup } from '../inbox/factories';
import { PNG_1x1, download, upload } from '../assets/helpers';
import { EDIT_WINDOW_MS, TEAM_TEXTS } from '../../api/teamChat/schema';

const MINUTE = 60_000;

describe('Team chat API: rooms, direct messages, membership, the 15-minute window, search, files and #protocolo mentions', function () {
  this.timeout(60_000);
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let admin: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let restricted: TestOperator;
  /** How far the server's clock (the edit window's) is moved ahead of the real one. */
  let offsetMs = 0;

  before(async () => {
    api = await startTestApi();
    api.deps.clock = () => Date.now() + offsetMs;
  });
  after(() => api?.close());
  beforeEach(async () => {
    offsetMs = 0;
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Ana Admin' });
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6, { name: 'Sérgio Supervisor' });
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Alice Agente' });
    restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2, { name: 'Rui Restrito' });
  });

  const get = (token: string, path: string) => api.request('GET', `/api/team${path}`, { token });
  const post = (token: string, path: string, body: unknown = {}) => api.request('POST', `/api/team${path}`, { token, body });
  const put = (token: string, path: string, body: unknown) => api.request('PUT', `/api/team${path}`, { token, body });
  const del = (token: string, path: string) => api.request('DELETE', `/api/team${path}`, { token });
  const ok = <T = any>(res: { status: number; body: any }, status = 200): T => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    return res.body.data as T;
  };
  const rooms = async (token: string) => ok<{ id: number; kind: string; name: string; unread: number; lastMessage: { preview: string } | null }[]>(await get(token, '/rooms'));
  const send = async (token: string, roomId: number, body: string) => ok<{ id: number; body: string }>(await post(token, `/rooms/${roomId}/messages`, { body }), 201);
  const newRoom = async (members: number[], name = 'Plantão de sábado') => ok<{ id: number }>(await post(owner.token, '/rooms', { name, members }), 201);

  describe('rooms and membership', () => {
    it('a group’s room is its members’: it appears with the group, named after it, for them only', async () => {
      const groupId = await makeGroup(api.deps.knex, ws, [agent.id, restricted.id]);
      const group = await api.deps.knex('groups').where({ id: groupId }).first('name');
      const listed = (await rooms(agent.token)).filter((r) => r.kind === 'group');
      expect(listed.map((r) => r.name)).to.deep.equal([group.name]);
      expect((await rooms(restricted.token)).map((r) => r.id)).to.deep.equal([listed[0].id]);
      // Neither the owner nor the admin is in the group: the room is not theirs to read.
      for (const outsider of [owner, admin, master]) {
        expect(await rooms(outsider.token)).to.deep.equal([]);
        expect((await get(outsider.token, `/rooms/${listed[0].id}/messages`)).status).to.equal(404);
        expect((await post(outsider.token, `/rooms/${listed[0].id}/messages`, { body: 'Oi' })).status).to.equal(404);
      }
    });

    it('a room created at level 6+ has its creator and the chosen members; below 6 creating is refused (403)', async () => {
      for (const creator of [master, admin, owner]) {
        const room = ok<{ id: number; name: string; kind: string; canManage: boolean }>(await post(creator.token, '/rooms', { name: `Sala de ${creator.name}`, members: [agent.id] }), 201);
        expect(room).to.include({ kind: 'room', name: `Sala de ${creator.name}`, canManage: true });
        const detail = ok<{ members: { id: number }[] }>(await get(agent.token, `/rooms/${room.id}`));
        expect(detail.members.map((m) => m.id).sort()).to.deep.equal([creator.id, agent.id].sort());
      }
      for (const below of [agent, restricted]) {
        const res = await post(below.token, '/rooms', { name: 'Minha sala', members: [] });
        expect(res.status).to.equal(403);
        expect(res.body.errors[0]).to.include({ type: 'ForbiddenError' });
      }
      expect(await api.deps.knex('team_rooms').where({ workspaceId: ws.id, kind: 'room' }).count({ n: '*' }).first()).to.deep.equal({ n: 3 });
    });

    it('refuses, on `members`, an operator of another workspace, a pending invitee and a deactivated agent, and an empty name; nothing is written', async () => {
      const other = await makeWorkspace(api.deps.knex);
      const outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 3);
      const pending = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { verificationLevel: 0 });
      const inactive = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { isActive: false });
      const res = await post(owner.token, '/rooms', { name: 'Sala', members: [outsider.id, pending.id, inactive.id] });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'members', descriptions: [TEAM_TEXTS.memberNotFound, TEAM_TEXTS.memberPending, TEAM_TEXTS.memberInactive] }]);
      const blank = await post(owner.token, '/rooms', { name: '   ', members: 'x' });
      expect(blank.status).to.equal(400);
      expect(blank.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['members', 'name']);
      expect(await api.deps.knex('team_rooms').where({ workspaceId: ws.id }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    });

    it('a manager renames a room and replaces its members: who is left out no longer lists, reads or writes in it', async () => {
      const room = await newRoom([agent.id, restricted.id]);
      await send(restricted.token, room.id, 'Quem cobre o sábado?');
      const res = await put(master.token, `/rooms/${room.id}`, { name: 'Plantão de domingo', members: [owner.id, agent.id] });
      expect(ok<{ name: string }>(res).name).to.equal('Plantão de domingo');
      expect((await rooms(agent.token)).map((r) => r.name)).to.deep.equal(['Plantão de domingo']);
      expect(await rooms(restricted.token)).to.deep.equal([]);
      expect((await get(restricted.token, `/rooms/${room.id}/messages`)).status).to.equal(404);
      expect((await post(restricted.token, `/rooms/${room.id}/messages`, { body: 'Ainda estou aqui?' })).status).to.equal(404);
      expect((await get(restricted.token, `/search?q=sabado`)).body.data).to.deep.equal([]);
      // Below 6: no changes; a group's room is changed in Configurações → Grupos, not here.
      expect((await put(agent.token, `/rooms/${room.id}`, { name: 'Minha' })).status).to.equal(403);
      const groupId = await makeGroup(api.deps.knex, ws, [owner.id]);
      const groupRoom = await api.deps.knex('team_rooms').where({ groupId }).first('id');
      const refused = await put(owner.token, `/rooms/${groupRoom.id}`, { name: 'Outro nome' });
      expect(refused.status).to.equal(409);
      expect(refused.body.errors[0].descriptions).to.deep.equal([TEAM_TEXTS.notRoom]);
    });

    it('deleting a room takes its messages with it; a group’s room goes with the group', async () => {
      const room = await newRoom([agent.id]);
      await send(agent.token, room.id, 'Oi');
      expect((await del(agent.token, `/rooms/${room.id}`)).status).to.equal(403);
      expect((await del(admin.token, `/rooms/${room.id}`)).status).to.equal(204);
      expect(await api.deps.knex('team_messages').where({ roomId: room.id }).first()).to.equal(undefined);
      expect((await get(agent.token, `/rooms/${room.id}`)).status).to.equal(404);
      const groupId = await makeGroup(api.deps.knex, ws, [agent.id]);
      expect(await rooms(agent.token)).to.have.length(1);
      expect((await api.request('DELETE', `/api/group/${groupId}`, { token: owner.token })).status).to.be.oneOf([200, 204]);
      expect(await rooms(agent.token)).to.deep.equal([]);
    });

    it('a group’s room follows the group: added members read its history, removed ones lose it', async () => {
      const groupId = await makeGroup(api.deps.knex, ws, [agent.id]);
      const [room] = await rooms(agent.token);
      await send(agent.token, room.id, 'Bom dia, equipe!');
      const save = (members: number[]) => api.request('PUT', `/api/group/${groupId}`, { token: owner.token, body: { members } });
      expect((await save([agent.id, restricted.id])).status).to.equal(200);
      expect(ok<{ body: string }[]>(await get(restricted.token, `/rooms/${room.id}/messages`)).map((m) => m.body)).to.deep.equal(['Bom dia, equipe!']);
      expect((await save([restricted.id])).status).to.equal(200);
      expect((await get(agent.token, `/rooms/${room.id}/messages`)).status).to.equal(404);
      expect(await rooms(agent.token)).to.deep.equal([]);
    });

    it('a room of another workspace is a 404 on every route, even for its owner’s equal there', async () => {
      const other = await makeWorkspace(api.deps.knex);
      const otherOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      const room = await newRoom([agent.id]);
      const message = await send(agent.token, room.id, 'Segredo da casa');
      const calls = [
        get(otherOwner.token, `/rooms/${room.id}`),
        get(otherOwner.token, `/rooms/${room.id}/messages`),
        get(otherOwner.token, `/rooms/${room.id}/messages/${message.id}`),
        post(otherOwner.token, `/rooms/${room.id}/messages`, { body: 'x' }),
        put(otherOwner.token, `/rooms/${room.id}`, { name: 'x' }),
        del(otherOwner.token, `/rooms/${room.id}`),
        put(otherOwner.token, `/rooms/${room.id}/messages/${message.id}`, { body: 'x' }),
        del(otherOwner.token, `/rooms/${room.id}/messages/${message.id}`),
        post(otherOwner.token, `/rooms/${room.id}/read`),
      ];
      for (const res of await Promise.all(calls)) expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect((await get(otherOwner.token, '/search?q=segredo')).body.data).to.deep.equal([]);
      expect(ok<{ body: string }>(await get(agent.token, `/rooms/${room.id}/messages/${message.id}`)).body).to.equal('Segredo da casa');
    });
  });

  describe('direct messages', () => {
    it('one conversation per pair at every level; the other agent sees it once it has a message; a third cannot read it', async () => {
      const opened = await post(restricted.token, '/direct', { operatorId: agent.id });
      expect(opened.status).to.equal(201);
      const again = await post(agent.token, '/direct', { operatorId: restricted.id });
      expect(again.status).to.equal(200);
      expect(again.body.data.id).to.equal(opened.body.data.id);
      expect(again.body.data).to.include({ kind: 'direct', name: 'Rui Restrito' });
      const roomId = opened.body.data.id as number;
      // Opened but empty: listed for who opened it only.
      expect((await rooms(restricted.token)).map((r) => r.id)).to.deep.equal([roomId]);
      await send(restricted.token, roomId, 'Oi Alice, pode me ajudar com um pedido?');
      const listed = (await rooms(agent.token)).find((r) => r.id === roomId)!;
      expect(listed).to.deep.include({ kind: 'direct', name: 'Rui Restrito', unread: 1 });
      expect(listed.lastMessage?.preview).to.equal('Oi Alice, pode me ajudar com um pedido?');
      for (const third of [owner, admin, master]) {
        expect((await get(third.token, `/rooms/${roomId}/messages`)).status).to.equal(404);
        expect((await rooms(third.token)).map((r) => r.id)).to.not.include(roomId);
      }
    });

    it('refuses oneself, another workspace’s operator and a pending invitee (400 on operatorId)', async () => {
      const other = await makeWorkspace(api.deps.knex);
      const outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      const pending = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { verificationLevel: 0 });
      for (const [target, text] of [
        [agent, TEAM_TEXTS.directSelf],
        [outsider, TEAM_TEXTS.memberNotFound],
        [pending, TEAM_TEXTS.memberPending],
      ] as const) {
        const res = await post(agent.token, '/direct', { operatorId: target.id });
        expect(res.status).to.equal(400);
        expect(res.body.errors[0]).to.include({ key: 'operatorId' });
        expect(res.body.errors[0].descriptions).to.deep.equal([text]);
      }
      expect(await api.deps.knex('team_rooms').where({ workspaceId: other.id }).first()).to.equal(undefined);
    });
  });

  describe('messages, pages and unread markers', () => {
    it('pages newest first with `before`; unread counts what others wrote after the reader’s marker (writing moves it too); reading clears it', async () => {
      const room = await newRoom([agent.id, restricted.id]);
      const sent: number[] = [];
      for (let i = 1; i <= 35; i++) sent.push((await send(i % 2 ? agent.token : owner.token, room.id, `Mensagem ${i}`)).id);
      const first = await get(restricted.token, `/rooms/${room.id}/messages`);
      expect(first.body.hasMore).to.equal(true);
      expect(first.body.data.map((m: { body: string }) => m.body).slice(0, 2)).to.deep.equal(['Mensagem 35', 'Mensagem 34']);
      expect(first.body.data).to.have.length(30);
      const older = await get(restricted.token, `/rooms/${room.id}/messages?before=${first.body.data[29].id}`);
      expect(older.body.data.map((m: { body: string }) => m.body)).to.deep.equal(['Mensagem 5', 'Mensagem 4', 'Mensagem 3', 'Mensagem 2', 'Mensagem 1']);
      expect(older.body.hasMore).to.equal(false);

      const unread = async (op: TestOperator) => (await rooms(op.token)).find((r) => r.id === room.id)!.unread;
      expect(await unread(restricted)).to.equal(35);
      // Writing reads the room up to one's own message: the agent wrote the last one, the owner the one before.
      expect(await unread(agent)).to.equal(0);
      expect(await unread(owner)).to.equal(1);
      expect(ok<{ lastReadMessageId: number }>(await post(restricted.token, `/rooms/${room.id}/read`, { messageId: sent[9] })).lastReadMessageId).to.equal(sent[9]);
      expect(await unread(restricted)).to.equal(25);
      // The marker never moves back.
      await post(restricted.token, `/rooms/${room.id}/read`, { messageId: sent[2] });
      expect(await unread(restricted)).to.equal(25);
      await post(restricted.token, `/rooms/${room.id}/read`);
      expect(await unread(restricted)).to.equal(0);
      expect((await get(restricted.token, '/rooms')).body.unread).to.equal(0);
      await send(owner.token, room.id, 'Mais uma');
      expect((await get(restricted.token, '/rooms')).body.unread).to.equal(1);
    });

    it('refuses an empty message and a text over the limit, reporting each field', async () => {
      const room = await newRoom([agent.id]);
      const empty = await post(agent.token, `/rooms/${room.id}/messages`, { body: '  ' });
      expect(empty.status).to.equal(400);
      expect(empty.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'body', descriptions: [TEAM_TEXTS.empty] }]);
      const long = await post(agent.token, `/rooms/${room.id}/messages`, { body: 'x'.repeat(4001), file: 3 });
      expect(long.status).to.equal(400);
      expect(long.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['body', 'file']);
    });
  });

  describe('edit and delete: the author, within 15 minutes (clock injected)', () => {
    it('the author edits within the window (marked edited) and not a moment after it; nobody else ever', async () => {
      const room = await newRoom([agent.id, restricted.id]);
      const m = await send(agent.token, room.id, 'Entrega às 15h');
      offsetMs = EDIT_WINDOW_MS - MINUTE;
      const edited = ok<{ body: string; editedAt: string | null }>(await put(agent.token, `/rooms/${room.id}/messages/${m.id}`, { body: 'Entrega às 16h' }));
      expect(edited.body).to.equal('Entrega às 16h');
      expect(Date.parse(edited.editedAt!)).to.be.closeTo(Date.now() + offsetMs, 5000);
      const notMine = await put(owner.token, `/rooms/${room.id}/messages/${m.id}`, { body: 'Mudei' });
      expect(notMine.status).to.equal(403);
      expect(notMine.body.errors[0].descriptions).to.deep.equal([TEAM_TEXTS.notAuthor]);
      expect((await del(restricted.token, `/rooms/${room.id}/messages/${m.id}`)).status).to.equal(403);
      offsetMs = EDIT_WINDOW_MS + 1000;
      for (const res of [await put(agent.token, `/rooms/${room.id}/messages/${m.id}`, { body: 'Tarde demais' }), await del(agent.token, `/rooms/${room.id}/messages/${m.id}`)]) {
        expect(res.status).to.equal(409);
        expect(res.body.errors[0].descriptions).to.deep.equal([TEAM_TEXTS.windowClosed]);
      }
      expect(ok<{ body: string }>(await get(restricted.token, `/rooms/${room.id}/messages/${m.id}`)).body).to.equal('Entrega às 16h');
    });

    it('the author deletes within the window: text and file go, the place stays (“apagada”), it cannot be edited after', async () => {
      const room = await newRoom([agent.id]);
      const m = await send(agent.token, room.id, 'Mensagem errada');
      offsetMs = 14 * MINUTE;
      const gone = ok<{ body: string; isDeleted: boolean; file: unknown }>(await del(agent.token, `/rooms/${room.id}/messages/${m.id}`));
      expect(gone).to.include({ body: '', isDeleted: true, file: null });
      const page = ok<{ id: number; isDeleted: boolean; body: string }[]>(await get(owner.token, `/rooms/${room.id}/messages`));
      expect(page.find((x) => x.id === m.id)).to.include({ isDeleted: true, body: '' });
      expect((await put(agent.token, `/rooms/${room.id}/messages/${m.id}`, { body: 'Volta' })).status).to.equal(409);
      expect((await rooms(owner.token))[0].unread).to.equal(0);
    });
  });

  describe('search', () => {
    it('finds messages of one’s own rooms by stem and without accents, newest first, with the words marked; never other rooms', async () => {
      const mine = await newRoom([agent.id], 'Cozinha');
      const theirs = await newRoom([restricted.id], 'Caixa');
      await send(agent.token, mine.id, 'A torta de limão ficou pronta');
      await send(owner.token, mine.id, 'Mais tortas de limão para amanhã?');
      await send(restricted.token, theirs.id, 'Limão em falta no estoque');
      await send(agent.token, mine.id, 'Nada a ver com isso');
      const res = await get(agent.token, '/search?q=limao torta');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((h: { roomId: number }) => h.roomId)).to.deep.equal([mine.id, mine.id]);
      expect(res.body.data[0].room).to.deep.include({ name: 'Cozinha', kind: 'room' });
      expect(res.body.data[0].author).to.deep.equal({ id: owner.id, name: 'Olga Dona' });
      const marked = res.body.data[0].snippet.filter((p: { match: boolean }) => p.match).map((p: { text: string }) => p.text);
      expect(marked).to.deep.equal(['tortas', 'limão']);
      expect((await get(agent.token, `/search?q=limao&roomId=${theirs.id}`)).body.data).to.deep.equal([]);
      expect((await get(owner.token, `/search?q=limao&roomId=${theirs.id}`)).body.data).to.have.length(1);
      const short = await get(agent.token, '/search?q=a');
      expect(short.status).to.equal(400);
      expect(short.body.errors[0]).to.include({ key: 'q' });
    });

    it('leaves deleted messages out', async () => {
      const room = await newRoom([agent.id]);
      const m = await send(agent.token, room.id, 'Orçamento do casamento');
      await del(agent.token, `/rooms/${room.id}/messages/${m.id}`);
      expect((await get(owner.token, '/search?q=orcamento')).body.data).to.deep.equal([]);
    });
  });

  describe('files (the uploads’ 16 MB limit)', () => {
    it('attaches a file the author uploaded: the message carries it with a signed link that downloads it', async () => {
      const room = await newRoom([agent.id]);
      const up = await upload(api, agent.token, [{ name: 'escala.png', bytes: PNG_1x1, type: 'image/png' }]);
      expect(up.status, JSON.stringify(up.body)).to.equal(201);
      const key = up.body.data[0].key as string;
      const m = ok<{ file: { key: string; fileName: string; mime: string; size: number; url: string }; body: string }>(await post(agent.token, `/rooms/${room.id}/messages`, { file: { key } }), 201);
      expect(m.file).to.include({ key, fileName: 'escala.png', mime: 'image/png', size: PNG_1x1.length });
      expect(m.body).to.equal('');
      const got = await download(api, m.file.url);
      expect(got.status).to.equal(200);
      expect(got.bytes.equals(PNG_1x1)).to.equal(true);
      expect((await rooms(owner.token))[0].lastMessage?.preview).to.equal('📎 escala.png');
    });

    it('refuses a key uploaded by someone else (of this workspace or another), and an upload over 16 MB never gets a key', async () => {
      const room = await newRoom([agent.id]);
      const byOwner = await upload(api, owner.token, [{ name: 'a.png', bytes: PNG_1x1, type: 'image/png' }]);
      const other = await makeWorkspace(api.deps.knex);
      const outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      const foreign = await upload(api, outsider.token, [{ name: 'b.png', bytes: PNG_1x1, type: 'image/png' }]);
      for (const key of [byOwner.body.data[0].key, foreign.body.data[0].key, 'nao-existe']) {
        const res = await post(agent.token, `/rooms/${room.id}/messages`, { body: 'veja', file: { key } });
        expect(res.status).to.equal(400);
        expect(res.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'file', descriptions: [TEAM_TEXTS.fileNotFound] }]);
      }
      const big = await upload(api, agent.token, [{ name: 'grande.txt', bytes: Buffer.alloc(16 * 1024 * 1024 + 1, 97), type: 'text/plain' }]);
      expect(big.status).to.equal(413);
      expect(await api.deps.knex('team_messages').where({ roomId: room.id }).first()).to.equal(undefined);
    });
  });

  describe('#protocolo mentions', () => {
    it('link to the conversation only for a reader who may open it; other workspaces’ and unknown protocols stay text', async () => {
      const channel = await makeChannel(api.deps.knex, ws);
      const groupId = await makeGroup(api.deps.knex, ws, [master.id]);
      // In a group the agent is not in: the owner and the group's supervisor see it, the agent does not (SPEC §6).
      const hidden = await makeConversation(api.deps, channel, { name: 'Cliente do Grupo', groupId });
      const open = await makeConversation(api.deps, channel, { name: 'Cliente Aberto' });
      const protocolOf = async (callId: number) => Number((await api.deps.knex('calls').where({ id: callId }).first('protocol')).protocol);
      const [hiddenP, openP] = [await protocolOf(hidden.callId), await protocolOf(open.callId)];

      const room = await newRoom([agent.id, master.id]);
      const text = `Vejam #${hiddenP} e #${openP}; nada em #99999999 nem a#${openP}`;
      const sent = ok<{ id: number; mentions: { protocol: number; conversationId: number }[] }>(await post(owner.token, `/rooms/${room.id}/messages`, { body: text }), 201);
      expect(sent.mentions.map((m) => m.protocol)).to.deep.equal([hiddenP, openP]);

      const mentionsFor = async (op: TestOperator) => {
        const one = ok<{ mentions: { protocol: number; conversationId: number; isFinished: boolean; contactName: string }[] }>(await get(op.token, `/rooms/${room.id}/messages/${sent.id}`)).mentions;
        const page = ok<{ id: number; mentions: unknown }[]>(await get(op.token, `/rooms/${room.id}/messages`)).find((m) => m.id === sent.id)!.mentions;
        expect(page).to.deep.equal(one);
        return one;
      };
      expect(await mentionsFor(owner)).to.deep.equal([
        { protocol: hiddenP, conversationId: hidden.conversationId, isFinished: false, contactName: 'Cliente do Grupo' },
        { protocol: openP, conversationId: open.conversationId, isFinished: false, contactName: 'Cliente Aberto' },
      ]);
      expect((await mentionsFor(master)).map((m) => m.conversationId)).to.deep.equal([hidden.conversationId, open.conversationId]);
      expect(await mentionsFor(agent)).to.deep.equal([{ protocol: openP, conversationId: open.conversationId, isFinished: false, contactName: 'Cliente Aberto' }]);

      // Protocols are numbered per workspace: the same number elsewhere is that workspace's own conversation, never this one's.
      const other = await makeWorkspace(api.deps.knex);
      const otherOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      const foreign = await makeConversation(api.deps, await makeChannel(api.deps.knex, other));
      expect(await protocolOf(foreign.callId)).to.equal(hiddenP);
      const theirRoom = ok<{ id: number }>(await post(otherOwner.token, '/rooms', { name: 'Deles', members: [] }), 201);
      const theirs = ok<{ mentions: { conversationId: number }[] }>(await post(otherOwner.token, `/rooms/${theirRoom.id}/messages`, { body: `#${hiddenP} e #${openP}` }), 201);
      expect(theirs.mentions.map((m) => m.conversationId)).to.deep.equal([foreign.conversationId]);
    });
  });

  it('is for people: the workspace API token is refused (403)', async () => {
    const secret = await api.request('POST', '/api/workspace/secrets', { token: owner.token, body: {} });
    expect(secret.status, JSON.stringify(secret.body)).to.be.oneOf([200, 201]);
    const apiToken = secret.body.data.apiToken as string;
    expect(apiToken).to.be.a('string');
    const res = await get(apiToken, '/rooms');
    expect(res.status).to.equal(403);
    expect(res.body.errors[0].descriptions).to.deep.equal([TEAM_TEXTS.apiToken]);
  });
});
