import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, makeGroup, type TestChannel } from '../inbox/factories';
import { PNG_1x1, upload } from '../assets/helpers';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { addCloudLine, deliverCloudMessages, type CloudLine } from '../channels/whatsapp/support';
import { localOf, zonedInstant } from '../../api/schedules/recurrence';
import { SCHEDULE_MESSAGES, ScheduleCreateSchema } from '../../api/schedules/schema';
import { createSchedule, SCHEDULE_TEXTS } from '../../api/schedules/saveSchedule';
import { kickScheduledMessage, kickUntoldSchedules } from '../../api/schedules/kick';
import { loadViewer } from '../../api/policy/conversations';
import { workflowIds } from '../../workflows/ids';

const ZONE = 'America/Sao_Paulo';
const HOUR = 3_600_000;
/** A wall-clock time in the workspace's zone `ms` from now. */
const later = (ms: number, zone = ZONE) => localOf(new Date(Date.now() + ms), zone);

const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'lembrete',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'NAMED',
    components: [{ type: 'BODY', text: 'Oi {{nome}}! Seu horário está confirmado.', example: { body_text_named_params: [{ param_name: 'nome', example: 'Maria' }] } }],
  },
];

describe('Scheduled messages API: create, validate, edit, cancel, who sees what, and nothing across workspaces', function () {
  this.timeout(60_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let channel: TestChannel;
  let conversationId: number;
  let callId: number;

  before(async () => {
    await graph.start();
    api = await startTestApi({ temporalTaskQueue: unique('schedules-api'), metaGraphUrl: graph.url });
  });
  after(async () => {
    await api?.close();
    await graph.stop();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    channel = await makeChannel(api.deps.knex, ws);
    ({ conversationId, callId } = await makeConversation(api.deps, channel, { name: 'Maria da Silva' }));
  });

  const post = (token: string, body: Record<string, unknown>) => api.request('POST', '/api/schedules', { token, body });
  const create = async (token: string, body: Record<string, unknown> = {}) => {
    const res = await post(token, { conversationId, sendAt: later(2 * HOUR), text: 'Olá {{primeiro_nome}}, tudo certo?', ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  };
  const row = (id: number) => api.deps.knex('scheduled_messages').where({ id }).first();
  const workflowStatus = async (id: number) => {
    const client = await api.deps.temporal.client();
    return (await client.workflow.getHandle(workflowIds.scheduledMessage(id)).describe()).status.name;
  };

  describe('create', () => {
    it('an agent who sees the conversation schedules a message for a wall-clock time of the workspace; its workflow is started and told', async () => {
      const sendAt = later(3 * HOUR);
      const s = await create(agent.token, { sendAt });
      expect(s).to.include({ conversationId, state: 'scheduled', sendAt, startsAt: sendAt, timeZone: ZONE, repeat: 'none', repeatUntil: null, text: 'Olá {{primeiro_nome}}, tudo certo?', contactName: 'Maria da Silva', sentCount: 0, canEdit: true, error: null });
      expect(s.dueAt).to.equal(zonedInstant(sendAt, ZONE).toISOString());
      expect(s.operator).to.deep.equal({ id: agent.id, name: agent.name });
      expect(s.channel).to.include({ id: channel.id, type: 'widget' });
      const stored = await row(s.id);
      expect(stored.kickedRevision).to.equal(stored.revision);
      expect(await workflowStatus(s.id)).to.equal('RUNNING');
    });

    it('a schedule whose workflow was never told (Temporal away at the commit) is told by the worker’s sweep', async () => {
      const viewer = await loadViewer(api.deps.knex, { workspaceId: ws.id, operatorId: agent.id, accessLevel: 3 });
      const input = ScheduleCreateSchema.parse({ conversationId, sendAt: later(5 * HOUR), text: 'Oi' });
      const saved = await createSchedule(api.deps, viewer, input);
      expect(await kickScheduledMessage({ knex: api.deps.knex, logger: api.deps.logger }, saved)).to.equal(false);
      expect((await row(saved.id)).kickedRevision).to.equal(null);
      expect(await kickUntoldSchedules(api.deps, { olderThanMs: 0, workspaceIds: [ws.id] })).to.equal(1);
      expect((await row(saved.id)).kickedRevision).to.equal(1);
      expect(await workflowStatus(saved.id)).to.equal('RUNNING');
      // Told once: the next sweep finds nothing to tell.
      expect(await kickUntoldSchedules(api.deps, { olderThanMs: 0, workspaceIds: [ws.id] })).to.equal(0);
    });

    it('reads the time in the workspace’s own time zone', async () => {
      await api.deps.knex('workspaces').where({ id: ws.id }).update({ timeZone: 'Asia/Tokyo' });
      const sendAt = later(5 * HOUR, 'Asia/Tokyo');
      const s = await create(owner.token, { sendAt });
      expect(s).to.include({ timeZone: 'Asia/Tokyo', sendAt });
      expect(Date.parse(s.dueAt)).to.be.closeTo(Date.now() + 5 * HOUR, 61_000);
    });

    it('keeps a repetition with its end date, and a file uploaded to the workspace with its name, type and size', async () => {
      const up = await upload(api, agent.token, [{ name: 'cardapio.png', bytes: PNG_1x1, type: 'image/png' }]);
      expect(up.status, JSON.stringify(up.body)).to.be.oneOf([200, 201]);
      const key = (await api.deps.knex('stored_files').where({ workspaceId: ws.id }).orderBy('id', 'desc').first('key')).key as string;
      const sendAt = later(HOUR);
      const until = later(10 * 24 * HOUR).slice(0, 10);
      const s = await create(agent.token, { sendAt, repeat: 'weekly', repeatUntil: until, text: '', file: { key } });
      expect(s).to.include({ repeat: 'weekly', repeatUntil: until, text: '' });
      expect(s.file).to.deep.equal({ key, fileName: 'cardapio.png', mime: 'image/png', size: PNG_1x1.length });
    });

    it('reports every failing field at once, in pt-BR', async () => {
      const res = await post(agent.token, { sendAt: '2026-02-30T10:00', repeat: 'yearly', text: 'x'.repeat(20_001) });
      expect(res.status).to.equal(400);
      const keys = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
      expect(keys).to.include({ conversationId: 'Informe a conversa.', sendAt: SCHEDULE_MESSAGES.sendAt, repeat: 'Repetição inválida.', text: SCHEDULE_MESSAGES.tooLong });
      expect(res.body.errors[0]).to.include({ type: 'ValidationError' });
    });

    it('refuses an empty message, a time in the past, an end before the first send and a file of another workspace', async () => {
      const empty = await post(agent.token, { conversationId, sendAt: later(HOUR), text: '   ' });
      expect(empty.status).to.equal(400);
      expect(empty.body.errors).to.deep.include({ type: 'ValidationError', title: 'Dados inválidos', key: 'text', descriptions: [SCHEDULE_MESSAGES.empty] });

      const past = await post(agent.token, { conversationId, sendAt: later(-HOUR), text: 'Oi' });
      expect(past.status).to.equal(400);
      expect(past.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['sendAt']);
      expect(past.body.errors[0].descriptions).to.deep.equal([SCHEDULE_MESSAGES.past]);

      const sendAt = later(3 * 24 * HOUR);
      const until = await post(agent.token, { conversationId, sendAt, repeat: 'daily', repeatUntil: later(HOUR).slice(0, 10), text: 'Oi' });
      expect(until.status).to.equal(400);
      expect(until.body.errors[0]).to.include({ key: 'repeatUntil' });

      const other = await makeWorkspace(api.deps.knex);
      const outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
      await upload(api, outsider.token, [{ name: 'outro.png', bytes: PNG_1x1, type: 'image/png' }]);
      const foreignKey = (await api.deps.knex('stored_files').where({ workspaceId: other.id }).first('key')).key as string;
      const file = await post(agent.token, { conversationId, sendAt: later(HOUR), file: { key: foreignKey } });
      expect(file.status).to.equal(400);
      expect(file.body.errors[0]).to.include({ key: 'file' });
      expect(file.body.errors[0].descriptions).to.deep.equal([SCHEDULE_TEXTS.fileNotFound]);
      expect(await api.deps.knex('scheduled_messages').where({ workspaceId: ws.id }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    });

    it('drops fields a client may not set (author, state, workspace)', async () => {
      const other = await makeWorkspace(api.deps.knex);
      const s = await create(agent.token, { operatorId: owner.id, state: 'sent', workspaceId: other.id, sentCount: 9 });
      const stored = await row(s.id);
      expect(stored).to.include({ workspaceId: ws.id, operatorId: agent.id, state: 'scheduled', sentCount: 0 });
    });
  });

  describe('edit and cancel', () => {
    it('the author edits a pending schedule: new time, repetition and text; the workflow is told the new revision', async () => {
      const s = await create(agent.token);
      const sendAt = later(26 * HOUR);
      const res = await api.request('PUT', `/api/schedules/${s.id}`, { token: agent.token, body: { sendAt, repeat: 'daily', repeatUntil: later(5 * 24 * HOUR).slice(0, 10), text: 'Lembrete, {{nome}}: protocolo {{protocolo}}' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ sendAt, repeat: 'daily', text: 'Lembrete, {{nome}}: protocolo {{protocolo}}', state: 'scheduled' });
      const stored = await row(s.id);
      expect(stored).to.include({ revision: 2, kickedRevision: 2, occurrence: 0 });
    });

    it('cancels a pending schedule once; after that it can be neither edited nor canceled (409)', async () => {
      const s = await create(agent.token);
      const res = await api.request('POST', `/api/schedules/${s.id}/cancel`, { token: agent.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ state: 'canceled', canEdit: false });
      expect(res.body.data.canceledAt).to.be.a('string');
      expect(await row(s.id)).to.include({ state: 'canceled', canceledBy: agent.id });
      const again = await api.request('POST', `/api/schedules/${s.id}/cancel`, { token: agent.token });
      expect(again.status).to.equal(409);
      expect(again.body.errors[0]).to.include({ type: 'ConflictError' });
      expect(again.body.errors[0].descriptions).to.deep.equal([SCHEDULE_TEXTS.notPending]);
      const edit = await api.request('PUT', `/api/schedules/${s.id}`, { token: agent.token, body: { sendAt: later(HOUR), text: 'Oi' } });
      expect(edit.status).to.equal(409);
    });

    it('another agent who sees the conversation may read it but not change it (403); a supervisor (level 6) may', async () => {
      const s = await create(agent.token);
      const colleague = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const read = await api.request('GET', `/api/schedules/${s.id}`, { token: colleague.token });
      expect(read.status).to.equal(200);
      expect(read.body.data.canEdit).to.equal(false);
      const refused = await api.request('POST', `/api/schedules/${s.id}/cancel`, { token: colleague.token });
      expect(refused.status).to.equal(403);
      expect(refused.body.errors[0].descriptions).to.deep.equal([SCHEDULE_TEXTS.notYours]);
      expect((await api.request('PUT', `/api/schedules/${s.id}`, { token: colleague.token, body: { sendAt: later(HOUR), text: 'x' } })).status).to.equal(403);
      const master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
      expect((await api.request('GET', `/api/schedules/${s.id}`, { token: master.token })).body.data.canEdit).to.equal(true);
      expect((await api.request('POST', `/api/schedules/${s.id}/cancel`, { token: master.token })).status).to.equal(200);
    });
  });

  describe('visibility (SPEC §6) and tenant isolation', () => {
    it('the list and the detail show only schedules of conversations the viewer may see; level 9+ sees every one', async () => {
      const mine = await create(agent.token);
      // A conversation of a group the restricted agent is not in, assigned to someone else.
      const group = await makeGroup(api.deps.knex, ws, [owner.id]);
      const hidden = (await makeConversation(api.deps, channel, { operatorId: owner.id, groupId: group })).conversationId;
      const secret = await create(owner.token, { conversationId: hidden });
      const restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);

      const list = await api.request('GET', '/api/schedules', { token: restricted.token });
      expect(list.status).to.equal(200);
      expect(list.body.data.map((s: { id: number }) => s.id)).to.deep.equal([mine.id]);
      expect(list.body).to.include({ matchCount: 1, totalCount: 1 });
      expect((await api.request('GET', `/api/schedules/${secret.id}`, { token: restricted.token })).status).to.equal(404);
      expect((await api.request('POST', `/api/schedules/${secret.id}/cancel`, { token: restricted.token })).status).to.equal(404);
      // Scheduling needs the conversation: one the viewer cannot see is a 404.
      const refused = await post(restricted.token, { conversationId: hidden, sendAt: later(HOUR), text: 'Oi' });
      expect(refused.status).to.equal(404);

      const admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9);
      const all = await api.request('GET', '/api/schedules', { token: admin.token });
      expect(all.body.data.map((s: { id: number }) => s.id).sort()).to.deep.equal([mine.id, secret.id].sort());
    });

    it('another workspace reaches none of it: lists nothing, and every id is a 404', async () => {
      const s = await create(agent.token);
      const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
      const list = await api.request('GET', '/api/schedules', { token: other.token });
      expect(list.body).to.include({ matchCount: 0, totalCount: 0 });
      expect((await api.request('GET', `/api/schedules/${s.id}`, { token: other.token })).status).to.equal(404);
      expect((await api.request('PUT', `/api/schedules/${s.id}`, { token: other.token, body: { sendAt: later(HOUR), text: 'x' } })).status).to.equal(404);
      expect((await api.request('POST', `/api/schedules/${s.id}/cancel`, { token: other.token })).status).to.equal(404);
      expect((await post(other.token, { conversationId, sendAt: later(HOUR), text: 'x' })).status).to.equal(404);
      expect((await row(s.id)).state).to.equal('scheduled');
    });
  });

  describe('the workspace-wide list', () => {
    it('filters by state, agent, channel and conversation, pages with matchCount/totalCount, and speaks react-admin', async () => {
      const a = await create(agent.token, { sendAt: later(1 * HOUR) });
      const b = await create(owner.token, { sendAt: later(2 * HOUR) });
      const c = await create(agent.token, { sendAt: later(3 * HOUR) });
      const otherChannel = await makeChannel(api.deps.knex, ws);
      const otherConversation = (await makeConversation(api.deps, otherChannel)).conversationId;
      const d = await create(owner.token, { sendAt: later(4 * HOUR), conversationId: otherConversation });
      await api.request('POST', `/api/schedules/${c.id}/cancel`, { token: agent.token });
      const ids = async (query: string) => {
        const res = await api.request('GET', `/api/schedules?${query}`, { token: owner.token });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body;
      };
      expect((await ids('')).data.map((s: { id: number }) => s.id)).to.deep.equal([a.id, b.id, c.id, d.id]);
      expect((await ids('state=scheduled')).data.map((s: { id: number }) => s.id)).to.deep.equal([a.id, b.id, d.id]);
      expect((await ids('state=canceled')).data.map((s: { id: number }) => s.id)).to.deep.equal([c.id]);
      expect((await ids(`operatorId=${agent.id}`)).data.map((s: { id: number }) => s.id)).to.deep.equal([a.id, c.id]);
      expect((await ids(`channelId=${otherChannel.id}`)).data.map((s: { id: number }) => s.id)).to.deep.equal([d.id]);
      expect((await ids(`conversationId=${conversationId}&state=scheduled`)).data.map((s: { id: number }) => s.id)).to.deep.equal([a.id, b.id]);
      const page = await ids('limit=2&offset=2');
      expect(page.data.map((s: { id: number }) => s.id)).to.deep.equal([c.id, d.id]);
      expect(page).to.include({ matchCount: 4, totalCount: 4 });

      const ra = await api.request('GET', `/api/schedules?${new URLSearchParams({ sort: JSON.stringify(['dueAt', 'DESC']), range: JSON.stringify([0, 0]), filter: JSON.stringify({ state: 'scheduled' }) })}`, { token: owner.token });
      expect(ra.body.map((s: { id: number }) => s.id)).to.deep.equal([d.id]);
      expect(ra.headers.get('content-range')).to.equal('schedules 0-0/3');

      const bad = await api.request('GET', '/api/schedules?state=talvez', { token: owner.token });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ key: 'state' });
    });

    it('shows a sent schedule whose delivery then failed as failed, with the delivery’s reason', async () => {
      const s = await create(agent.token);
      const [m] = await api.deps.knex('messages')
        .insert({ workspaceId: ws.id, customerPlatformId: conversationId, callId, content: '[]', text: 'x', type: 0, status: 1, sender: 'operator', deliveryState: 'failed', deliveryError: 'Número inválido.' })
        .returning('id');
      await api.deps.knex('scheduled_messages').where({ id: s.id }).update({ state: 'sent', lastMessageId: m.id, sentCount: 1 });
      const res = await api.request('GET', `/api/schedules?state=failed`, { token: agent.token });
      expect(res.body.data.map((x: { id: number }) => x.id)).to.deep.equal([s.id]);
      expect(res.body.data[0]).to.include({ state: 'failed', error: 'Número inválido.' });
    });
  });

  describe('WhatsApp Cloud: the 24-hour window', () => {
    const appSecret = 'segredo-do-app';
    let line: CloudLine;

    async function cloudConversation(ageMs: number): Promise<number> {
      ({ line } = await addCloudLine(api, graph, owner, { appSecret, templates: TEMPLATES }));
      const res = await deliverCloudMessages(api, line, appSecret, { waId: `55119${String(Date.now()).slice(-8)}`, name: 'Maria Cliente' }, [{ type: 'text', text: { body: 'Olá' } }]);
      expect(res.status).to.equal(200);
      const m = await api.deps.knex('messages').where({ channelId: line.id, sender: 'customer' }).orderBy('id', 'desc').first();
      await api.deps.knex('messages').where({ id: m.id }).update({ createdAt: new Date(Date.now() - ageMs) });
      return m.customerPlatformId as number;
    }

    it('a send due after the window closes needs an approved template; a send inside it does not', async () => {
      const id = await cloudConversation(20 * HOUR);
      const inside = await post(owner.token, { conversationId: id, sendAt: later(2 * HOUR), text: 'Oi' });
      expect(inside.status, JSON.stringify(inside.body)).to.equal(201);
      const outside = await post(owner.token, { conversationId: id, sendAt: later(6 * HOUR), text: 'Oi' });
      expect(outside.status).to.equal(400);
      expect(outside.body.errors[0]).to.include({ key: 'template' });
      expect(outside.body.errors[0].descriptions).to.deep.equal([SCHEDULE_TEXTS.templateNeeded]);
      const repeating = await post(owner.token, { conversationId: id, sendAt: later(2 * HOUR), repeat: 'daily', text: 'Oi' });
      expect(repeating.body.errors[0]).to.include({ key: 'template' });
    });

    it('keeps the chosen template with its values (which may use the variables), and refuses unknown templates and empty values', async () => {
      const id = await cloudConversation(30 * HOUR);
      const ok = await post(owner.token, { conversationId: id, sendAt: later(HOUR), template: { name: 'lembrete', language: 'pt_BR', body: { nome: '{{primeiro_nome}}' } } });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body.data.template).to.deep.equal({ name: 'lembrete', language: 'pt_BR', header: {}, body: { nome: '{{primeiro_nome}}' } });
      const stored = await row(ok.body.data.id);
      expect(stored.template.definition).to.include({ name: 'lembrete', body: 'Oi {{nome}}! Seu horário está confirmado.' });

      const unknown = await post(owner.token, { conversationId: id, sendAt: later(HOUR), template: { name: 'nao_existe', language: 'pt_BR' } });
      expect(unknown.body.errors[0]).to.include({ key: 'template.name' });
      const blank = await post(owner.token, { conversationId: id, sendAt: later(HOUR), template: { name: 'lembrete', language: 'pt_BR', body: { nome: ' ' } } });
      expect(blank.body.errors[0]).to.include({ key: 'template.body.nome' });
    });

    it('a template on a channel that is not a Cloud line is refused', async () => {
      const res = await post(owner.token, { conversationId, sendAt: later(HOUR), template: { name: 'lembrete', language: 'pt_BR' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.include({ key: 'template' });
      expect(res.body.errors[0].descriptions).to.deep.equal([SCHEDULE_TEXTS.noTemplates]);
    });
  });
});
