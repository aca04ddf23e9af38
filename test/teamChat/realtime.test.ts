import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeGroup } from '../inbox/factories';
import { topics } from '../../api/realtime/publisher';
import type { AccessLevelValue } from '../../api/policy/levels';
import { Clients, inbox, sleep, subscribeCodes, waitFor } from '../realtime/mqttClients';
import { mayReceive } from '../../api/realtime/access';

const LEVELS: AccessLevelValue[] = [2, 3, 6, 9, 10];
const GRANTED = 1;
const REFUSED = 128;

/**
 * The team chat over the real embedded broker (docs/team-chat.md "Realtime"): a room's topic is heard by its
 * members only, whatever their level; nothing of a workspace reaches another; a member removed from a room
 * or from its group loses the session that was subscribed and cannot subscribe again.
 */
describe('team chat realtime: room topics on the embedded broker, across levels and workspaces', function () {
  this.timeout(60_000);
  let api: TestApi;
  let clients: Clients;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  /** One member of workspace A per level, and an owner of workspace B. */
  let a: Record<AccessLevelValue, TestOperator>;
  let bOwner: TestOperator;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
  });
  beforeEach(async () => {
    wsA = await makeWorkspace(api.deps.knex);
    wsB = await makeWorkspace(api.deps.knex);
    a = {} as Record<AccessLevelValue, TestOperator>;
    for (const level of LEVELS) a[level] = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, level);
    bOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, wsB, 10);
  });
  afterEach(() => clients.endAll());
  after(() => api?.close());

  const room = async (creator: TestOperator, members: number[]) => {
    const res = await api.request('POST', '/api/team/rooms', { token: creator.token, body: { name: 'Sala', members } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.id as number;
  };
  const send = async (op: TestOperator, roomId: number, body: string) => {
    const res = await api.request('POST', `/api/team/rooms/${roomId}/messages`, { token: op.token, body: { body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const connect = (op: TestOperator) => clients.connect(String(op.id), op.token);

  it('every level subscribes to the rooms it is in and is refused the others, even at level 9 and 10', async () => {
    const withLow = await room(a[6], [a[2].id, a[3].id]);
    const withHigh = await room(a[9], [a[10].id]);
    const expected: Record<AccessLevelValue, [number, number]> = {
      2: [GRANTED, REFUSED],
      3: [GRANTED, REFUSED],
      6: [GRANTED, REFUSED],
      9: [REFUSED, GRANTED],
      10: [REFUSED, GRANTED],
    };
    for (const level of LEVELS) {
      const client = await connect(a[level]);
      const codes = await subscribeCodes(client, [topics.teamRoom(wsA.id, withLow), topics.teamRoom(wsA.id, withHigh)]);
      expect(codes, `level ${level}`).to.deep.equal(expected[level]);
    }
  });

  it('a group’s room at every level: its members subscribe, the rest are refused', async () => {
    await makeGroup(api.deps.knex, wsA, [a[2].id, a[9].id]);
    const roomId = (await api.deps.knex('team_rooms').where({ workspaceId: wsA.id, kind: 'group' }).first('id')).id as number;
    for (const level of LEVELS) {
      const client = await connect(a[level]);
      expect(await subscribeCodes(client, [topics.teamRoom(wsA.id, roomId)]), `level ${level}`).to.deep.equal([level === 2 || level === 9 ? GRANTED : REFUSED]);
    }
  });

  it('nothing crosses workspaces: another workspace’s room is refused under either workspace id, and wildcards always', async () => {
    const roomA = await room(a[10], [a[3].id]);
    const roomB = await room(bOwner, []);
    const fromB = await connect(bOwner);
    expect(await subscribeCodes(fromB, [topics.teamRoom(wsA.id, roomA), topics.teamRoom(wsB.id, roomA), topics.teamRoom(wsB.id, roomB)])).to.deep.equal([REFUSED, REFUSED, GRANTED]);
    const fromA = await connect(a[10]);
    const refused = [topics.teamRoom(wsB.id, roomB), topics.teamRoom(wsA.id, roomB), `ws/${wsA.id}/team/+`, `ws/${wsA.id}/team/#`, `ws/+/team/${roomA}`, `ws/${wsA.id}/team/${roomA}/x`, `ws/${wsA.id}/team/0${roomA}`];
    expect(await subscribeCodes(fromA, [...refused, topics.teamRoom(wsA.id, roomA)])).to.deep.equal([...refused.map(() => REFUSED), GRANTED]);
  });

  it('a message reaches the room’s subscribed members live, and no one else subscribed anywhere', async () => {
    const roomId = await room(a[6], [a[2].id]);
    const other = await room(a[9], [a[10].id]);
    const member = await connect(a[2]);
    const outsider = await connect(a[10]);
    const got = inbox(member);
    const heardByOutsider = inbox(outsider);
    await subscribeCodes(member, [topics.teamRoom(wsA.id, roomId), topics.operator(wsA.id, a[2].id)]);
    await subscribeCodes(outsider, [topics.teamRoom(wsA.id, roomId), topics.teamRoom(wsA.id, other), topics.operator(wsA.id, a[10].id), topics.workspace(wsA.id)]);
    await send(a[6], roomId, 'Reunião às 14h');
    const event = await waitFor(() => got.find((r) => r.envelope.event === 'team.message'), 15_000, 'the member to hear the message');
    expect(event.topic).to.equal(topics.teamRoom(wsA.id, roomId));
    expect(event.envelope.data).to.deep.include({ roomId });
    expect((event.envelope.data as { message: { body: string; author: { id: number } } }).message).to.deep.include({ body: 'Reunião às 14h' });
    // The outsider's own room still works: what they did not hear was not theirs.
    await send(a[10], other, 'Só para nós');
    await waitFor(() => heardByOutsider.some((r) => r.envelope.event === 'team.message'), 15_000, 'the outsider to hear their own room');
    expect(heardByOutsider.filter((r) => r.envelope.event === 'team.message').map((r) => r.topic)).to.deep.equal([topics.teamRoom(wsA.id, other)]);
    expect(JSON.stringify(heardByOutsider)).to.not.include('Reunião');
  });

  it('a member removed from a room stops hearing it at once, session kept (inbox and presence go on), and cannot subscribe again', async () => {
    const roomId = await room(a[6], [a[2].id, a[3].id]);
    const removed = await connect(a[2]);
    const stays = await connect(a[3]);
    await subscribeCodes(removed, [topics.teamRoom(wsA.id, roomId), topics.operator(wsA.id, a[2].id)]);
    await subscribeCodes(stays, [topics.teamRoom(wsA.id, roomId)]);
    const heardByRemoved = inbox(removed);
    const stillHears = inbox(stays);
    const res = await api.request('PUT', `/api/team/rooms/${roomId}`, { token: a[6].token, body: { members: [a[6].id, a[3].id] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitFor(() => heardByRemoved.find((r) => r.envelope.event === 'team.rooms'), 15_000, 'the removed member to be told');
    await send(a[6], roomId, 'Depois da saída');
    await waitFor(() => stillHears.some((r) => r.envelope.event === 'team.message'), 15_000, 'a remaining member to hear the room');
    await sleep(300);
    expect(heardByRemoved.filter((r) => r.envelope.event === 'team.message')).to.deep.equal([]);
    expect(removed.connected).to.equal(true);
    expect(await subscribeCodes(removed, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([REFUSED]);
    // Their own topic still works on that session.
    await api.request('POST', '/api/team/direct', { token: a[6].token, body: { operatorId: a[2].id } }).then(async (d) => send(a[6], d.body.data.id, 'Oi'));
    await waitFor(() => heardByRemoved.filter((r) => r.envelope.event === 'team.rooms').length >= 2, 15_000, 'their own topic');
  });

  it('a member removed from the group stops hearing its room the same way; one added is told and may subscribe', async () => {
    const groupId = await makeGroup(api.deps.knex, wsA, [a[3].id]);
    const roomId = (await api.deps.knex('team_rooms').where({ workspaceId: wsA.id, groupId }).first('id')).id as number;
    const leaving = await connect(a[3]);
    await subscribeCodes(leaving, [topics.teamRoom(wsA.id, roomId)]);
    const heardByLeaving = inbox(leaving);
    const joining = await connect(a[2]);
    await subscribeCodes(joining, [topics.operator(wsA.id, a[2].id)]);
    const toldJoining = inbox(joining);
    expect(await subscribeCodes(joining, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([REFUSED]);
    const res = await api.request('PUT', `/api/group/${groupId}`, { token: a[10].token, body: { members: [a[2].id] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const told = await waitFor(() => toldJoining.find((r) => r.envelope.event === 'team.rooms'), 15_000, 'the new member to be told');
    expect(told.envelope.data).to.deep.equal({ roomId });
    expect(await subscribeCodes(joining, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([GRANTED]);
    await send(a[2], roomId, 'Entrei no grupo');
    await waitFor(() => toldJoining.some((r) => r.envelope.event === 'team.message'), 15_000, 'the new member to hear the room');
    await sleep(300);
    expect(heardByLeaving.filter((r) => r.envelope.event === 'team.message')).to.deep.equal([]);
    expect(leaving.connected).to.equal(true);
    expect(await subscribeCodes(leaving, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([REFUSED]);
  });

  it('the first direct message tells the other agent on their own topic, then both hear the conversation', async () => {
    const opened = await api.request('POST', '/api/team/direct', { token: a[2].token, body: { operatorId: a[9].id } });
    const roomId = opened.body.data.id as number;
    const other = await connect(a[9]);
    const heard = inbox(other);
    await subscribeCodes(other, [topics.operator(wsA.id, a[9].id)]);
    await send(a[2], roomId, 'Oi, pode olhar o #12?');
    await waitFor(() => heard.find((r) => r.envelope.event === 'team.rooms'), 15_000, 'the other agent to be told');
    expect(await subscribeCodes(other, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([GRANTED]);
    await send(a[2], roomId, 'Obrigado!');
    await waitFor(() => heard.find((r) => r.envelope.event === 'team.message'), 15_000, 'the direct message');
    // A third agent of any level is refused the pair's topic.
    const third: MqttClient = await connect(a[10]);
    expect(await subscribeCodes(third, [topics.teamRoom(wsA.id, roomId)])).to.deep.equal([REFUSED]);
  });
});

describe('team chat realtime: the same membership rule behind an external broker’s hooks (EMQX and RabbitMQ dialects)', function () {
  this.timeout(60_000);
  const HOOK_SECRET = 'segredo-dos-ganchos-da-equipe';
  let brokerApi: TestApi;
  let api: TestApi;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let member: TestOperator;
  let outsider: TestOperator;
  let otherOwner: TestOperator;
  let roomId: number;

  before(async () => {
    // The "external" broker is another api's embedded one (as in test/realtime/hooks.test.ts): the hooks are under test.
    brokerApi = await startTestApi();
    api = await startTestApi({ mqttUrl: `${brokerApi.url.replace(/^http/, 'ws')}/mqtt`, mqttHookSecret: HOOK_SECRET });
    ws = await makeWorkspace(api.deps.knex);
    other = await makeWorkspace(api.deps.knex);
    member = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    outsider = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    otherOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    const groupId = await makeGroup(api.deps.knex, ws, [member.id]);
    roomId = (await api.deps.knex('team_rooms').where({ workspaceId: ws.id, groupId }).first('id')).id as number;
  });
  after(async () => {
    await api?.close();
    await brokerApi?.close();
  });

  const headers = { Authorization: `Bearer ${HOOK_SECRET}` };
  const emqxAcl = async (op: TestOperator, topic: string) =>
    (await api.request('POST', '/api/mqtt/acl', { headers, body: { clientid: 'c1', username: String(op.id), topic, action: 'subscribe', role: 'operator', workspace_id: String(op.workspaceId) } })).body.result as string;
  const rabbitTopic = async (op: TestOperator, topic: string) => {
    const routingKey = topic.replace(/[./]/g, (c) => (c === '/' ? '.' : '/'));
    const res = await fetch(`${api.url}/api/mqtt/acl?secret=${encodeURIComponent(HOOK_SECRET)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: String(op.id), vhost: '/', resource: 'topic', name: 'amq.topic', permission: 'read', tags: '', routing_key: routingKey }).toString(),
    });
    return res.text();
  };

  it('EMQX: the CONNECT answer allows exactly the rooms the operator is in; the ACL hook checks the room’s membership', async () => {
    const auth = await api.request('POST', '/api/mqtt/auth', { headers, body: { clientid: 'c1', username: String(member.id), password: member.token } });
    expect(auth.body.acl).to.deep.equal([
      { permission: 'allow', action: 'subscribe', topic: `eq ${topics.operator(ws.id, member.id)}` },
      { permission: 'allow', action: 'subscribe', topic: `eq ${topics.workspace(ws.id)}` },
      { permission: 'allow', action: 'subscribe', topic: `eq ${topics.teamRoom(ws.id, roomId)}` },
      { permission: 'deny', action: 'all', topic: '#' },
    ]);
    const outsiderAuth = await api.request('POST', '/api/mqtt/auth', { headers, body: { clientid: 'c2', username: String(outsider.id), password: outsider.token } });
    expect(JSON.stringify(outsiderAuth.body.acl)).to.not.include('/team/');
    expect(await emqxAcl(member, topics.teamRoom(ws.id, roomId))).to.equal('allow');
    expect(await emqxAcl(outsider, topics.teamRoom(ws.id, roomId))).to.equal('deny');
    expect(await emqxAcl(otherOwner, topics.teamRoom(ws.id, roomId))).to.equal('deny');
    expect(await emqxAcl(otherOwner, topics.teamRoom(other.id, roomId))).to.equal('deny');
  });

  it('RabbitMQ: a room’s routing key is allowed for its members only, never to another workspace’s operator', async () => {
    expect(await rabbitTopic(member, topics.teamRoom(ws.id, roomId))).to.equal('allow');
    expect(await rabbitTopic(outsider, topics.teamRoom(ws.id, roomId))).to.equal('deny');
    expect(await rabbitTopic(otherOwner, topics.teamRoom(ws.id, roomId))).to.equal('deny');
    expect(await rabbitTopic(otherOwner, topics.teamRoom(other.id, roomId))).to.equal('deny');
    expect(await rabbitTopic(member, `ws/${ws.id}/team/+`)).to.equal('deny');
  });
});

describe('team chat realtime: delivery needs a granted subscription (mayReceive)', () => {
  it('delivers a room’s event only on a topic granted to that session, of the session’s workspace', () => {
    const identity = { kind: 'operator' as const, workspaceId: 7, operatorId: 3 };
    const topic = topics.teamRoom(7, 11);
    expect(mayReceive(identity, topic, new Set([topic]))).to.equal(true);
    expect(mayReceive(identity, topic, new Set())).to.equal(false);
    expect(mayReceive(identity, topic)).to.equal(false);
    expect(mayReceive(identity, topics.teamRoom(8, 11), new Set([topics.teamRoom(8, 11)]))).to.equal(false);
    expect(mayReceive(identity, topics.operator(7, 3))).to.equal(true);
    expect(mayReceive(identity, topics.operator(7, 4))).to.equal(false);
  });
});
