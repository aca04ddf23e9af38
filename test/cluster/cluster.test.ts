import { expect } from 'chai';
import mqtt from 'mqtt';
import type { Cluster } from '../../scripts/lib/cluster';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeGroup } from '../inbox/factories';
import { JWT_SECRET } from '../reliability/support/childApi';
import { Agent } from '../reliability/support/agent';
import { clientMessageId, eventually } from '../reliability/support/fixtures';
import { call, stopTestCluster, stopWorkflow, telegram, testCluster, whatsappWeb } from './support/cluster';
import { messageUpdate, postUpdate } from '../fakes/telegram';
import { qrMessageId } from '../../api/channels/whatsapp/qr/sender';
import { workflowIds } from '../../workflows/ids';

/**
 * A send held by a killed worker goes out within this: the send activity's heartbeat timeout (10 s), its
 * 1 s retry and the other worker's attempt, with room for a loaded machine (before heartbeats, the
 * 2-minute start-to-close timeout).
 */
const SEND_RETRY_BOUND_MS = 40_000;
/** A QR socket reopens on the other worker within its session's heartbeat timeout (20 s) and a 1 s retry, with room. */
const QR_RESUME_BOUND_MS = 45_000;

let ipSeq = 0;
/** A client address of this run's own, each in its own /24 (TRUST_PROXY=1 reads it from X-Forwarded-For). */
const newIp = () => `198.18.${++ipSeq % 250}.${Math.floor(ipSeq / 250) + 1}`;

interface Team {
  ws: TestWorkspace;
  owner: TestOperator;
  widget: { id: number; identifier: string };
}

/**
 * Issue 32, "What must hold with 2 api nodes and 2 workers": the topology of `npm run cluster`
 * (scripts/lib/cluster.ts) with RabbitMQ as the broker and haproxy in front, each case on its own team.
 */
describe('Cluster: 2 api nodes and 2 workers behind haproxy, RabbitMQ as the broker, limits in Redis', function () {
  this.timeout(240_000);
  let cluster: Cluster;
  let nodeA: string;
  let nodeB: string;

  before(async function () {
    this.timeout(300_000);
    cluster = await testCluster();
    [nodeA, nodeB] = cluster.apiUrls as [string, string];
  });
  after(() => stopTestCluster());

  async function makeTeam(): Promise<Team> {
    const { knex } = await testDatabase();
    const ws = await makeWorkspace(knex);
    const owner = await makeOperator(knex, JWT_SECRET, ws, 10);
    const res = await call(nodeA, 'POST', '/api/integrations/widget', { token: owner.token, body: { description: 'Chat do site', avatar: '#1570EF' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { ws, owner, widget: { id: res.body.data.id, identifier: res.body.data.identifier } };
  }
  const widgetMessage = (base: string, team: Team, text: string, options: { token?: string; id?: string; ip?: string } = {}) =>
    call(base, 'POST', '/api/v1/widget/messages', {
      token: options.token,
      ip: options.ip ?? newIp(),
      body: { content: text, type: 'text', identifier: team.widget.identifier, clientMessageId: options.id ?? clientMessageId() },
    });

  it('an agent on the broker receives, in order and once, every event of requests served by the other node; the visitor gets the reply sent through the first', async () => {
    const team = await makeTeam();
    const agent = new Agent(cluster.mqttWsUrl, team.ws.id, team.owner.id, team.owner.token);
    try {
      await agent.ready();
      const first = await widgetMessage(nodeB, team, 'mensagem 0');
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const visitor = first.body.data.visitor as { id: string; token: string };
      const ids = [first.body.data.message.id as number];
      for (let i = 1; i < 8; i++) {
        const res = await widgetMessage(nodeB, team, `mensagem ${i}`, { token: visitor.token });
        expect(res.status).to.equal(201);
        ids.push(res.body.data.message.id);
      }
      await eventually(async () => ids.every((id) => agent.newMessageIds().includes(id)), 20_000, 'every message on the agent');
      expect(agent.newMessageIds().filter((id) => ids.includes(id)), 'in order, once each').to.deep.equal(ids);

      // The visitor listens on the broker; the agent answers through node A.
      const { knex } = await testDatabase();
      const conversation = await knex('customer_platforms').where({ channelId: team.widget.id, externalId: visitor.id }).first('id');
      const heard: { event: string; data: unknown }[] = [];
      const v = mqtt.connect(cluster.mqttWsUrl, { username: `visitor:${visitor.id}`, password: visitor.token, clientId: `v_${visitor.id.slice(0, 8)}`, clean: true, reconnectPeriod: 0 });
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('visitor did not connect to the broker')), 15_000);
          v.once('connect', () => v.subscribe(`widget/${team.widget.identifier}/${visitor.id}`, { qos: 1 }, (err) => (clearTimeout(timer), err ? reject(err) : resolve())));
          v.once('error', reject);
        });
        v.on('message', (_t, payload) => heard.push(JSON.parse(payload.toString())));
        const reply = await call(nodeA, 'POST', '/api/inbox/messages', { token: team.owner.token, body: { id: conversation.id, content: [{ insert: 'Resposta do atendente\n' }], type: 0 } });
        expect(reply.status, JSON.stringify(reply.body)).to.equal(201);
        await eventually(async () => heard.some((e) => e.event === 'chat.widgetNewMessage' && JSON.stringify(e.data).includes('Resposta do atendente')), 15_000, 'the reply on the visitor');
        // Resolved through node A: the agent hears the status of the call, once.
        agent.events.length = 0;
        expect((await call(nodeA, 'POST', `/api/inbox/all/${conversation.id}`, { token: team.owner.token, body: { status: 'resolve' } })).status).to.equal(200);
        await eventually(async () => agent.events.some((e) => e.event === 'chat.callStatus'), 15_000, 'the call status on the agent');
        await new Promise((r) => setTimeout(r, 500));
        expect(agent.events.filter((e) => e.event === 'chat.callStatus')).to.have.length(1);
      } finally {
        await v.endAsync(true);
      }
    } finally {
      await agent.close();
    }
  });

  it('the 6th failed login in 5 minutes from one address is refused whichever node serves it, and widget first contacts count cluster-wide', async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      const res = await call(i % 2 ? nodeA : nodeB, 'POST', '/api/operators/login', { ip, body: { email: `ninguem${i}@example.com`, password: 'errada-123' } });
      expect(res.status).to.equal(401);
    }
    for (const node of [nodeA, nodeB]) {
      const refused = await call(node, 'POST', '/api/operators/login', { ip, body: { email: 'outro@example.com', password: 'errada-123' } });
      expect(refused.status, node).to.equal(429);
      expect(refused.body.errors[0].type).to.equal('RateLimitError');
    }

    // 10 free first contacts per address in 10 minutes (docs/widget.md), split over both nodes: the 11th gets the challenge.
    const team = await makeTeam();
    const shared = newIp();
    for (let i = 0; i < 10; i++) expect((await widgetMessage(i % 2 ? nodeA : nodeB, team, `oi ${i}`, { ip: shared })).status).to.equal(201);
    const challenged = await widgetMessage(nodeA, team, 'oi 11', { ip: shared });
    expect(challenged.status).to.equal(429);
    expect(challenged.body.errors[0].key).to.equal('challenge');
  });

  it('an agent online in two tabs counts once; round-robin over calls arriving on both nodes at once assigns each call once, fairly', async () => {
    const { knex } = await testDatabase();
    const team = await makeTeam();
    const agents = [await makeOperator(knex, JWT_SECRET, team.ws, 3), await makeOperator(knex, JWT_SECRET, team.ws, 3)];
    const groupId = await makeGroup(knex, team.ws, agents.map((a) => a.id));
    await knex('assignment_rules').insert({ workspaceId: team.ws.id, name: 'Suporte', isActive: true, rules: JSON.stringify({ group: groupId, workspacePlatformId: team.widget.id }) });
    const online = async () => (await knex('workspace_members').where({ workspaceId: team.ws.id, isOnline: true }).whereIn('operatorId', agents.map((a) => a.id)).pluck('operator_id')) as number[];

    // Agent 0 in two tabs, agent 1 in one.
    const tabs = [new Agent(cluster.mqttWsUrl, team.ws.id, agents[0]!.id, agents[0]!.token), new Agent(cluster.mqttWsUrl, team.ws.id, agents[0]!.id, agents[0]!.token), new Agent(cluster.mqttWsUrl, team.ws.id, agents[1]!.id, agents[1]!.token)];
    try {
      await Promise.all(tabs.map((t) => t.ready()));
      await eventually(async () => (await online()).length === 2, 20_000, 'both agents online');
      const sessions = await knex('operator_sessions').where({ workspaceId: team.ws.id, operatorId: agents[0]!.id }).whereNull('disconnected_at');
      expect(sessions, 'one presence for two tabs').to.have.length(1);
      // One tab closes: still online.
      await tabs[1]!.close();
      await new Promise((r) => setTimeout(r, 3000));
      expect((await online()).sort()).to.deep.equal(agents.map((a) => a.id).sort());

      // 20 first contacts at once, half on each node.
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => widgetMessage(i % 2 ? nodeA : nodeB, team, `chamado ${i}`)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(201));
      const calls = await knex('calls').where({ workspaceId: team.ws.id }).select('operator_id');
      expect(calls).to.have.length(20);
      const per = (id: number) => calls.filter((c) => c.operatorId === id).length;
      expect([per(agents[0]!.id), per(agents[1]!.id)], 'each call to one agent, alternating').to.deep.equal([10, 10]);
    } finally {
      await Promise.all(tabs.map((t) => t.close()));
    }
    await eventually(async () => (await online()).length === 0, 20_000, 'both agents offline once their last tab closed');
  });

  it('a deactivation on one node cuts the token on the other within the bound, and ends the agent’s broker session', async () => {
    const { knex } = await testDatabase();
    const team = await makeTeam();
    const agent = await makeOperator(knex, JWT_SECRET, team.ws, 3);
    for (const node of [nodeA, nodeB]) expect((await call(node, 'GET', '/api/workspace', { token: agent.token })).status, node).to.equal(200);
    const tab = new Agent(cluster.mqttWsUrl, team.ws.id, agent.id, agent.token, 60_000);
    try {
      await tab.ready();
      await eventually(async () => (await knex('workspace_members').where({ workspaceId: team.ws.id, operatorId: agent.id }).first('is_online')).isOnline, 20_000, 'agent online');
      const cut = Date.now();
      expect((await call(nodeA, 'PUT', `/api/operator/${agent.id}`, { token: team.owner.token, body: { isActive: false } })).status).to.equal(200);
      await eventually(async () => (await call(nodeB, 'GET', '/api/workspace', { token: agent.token })).status === 401, 6_000, 'token refused on node B');
      expect(Date.now() - cut, 'within MEMBERSHIP_MAX_AGE_MS').to.be.below(6_000);
      await eventually(async () => !tab.client.connected, 10_000, 'broker session closed');
    } finally {
      await tab.close();
    }
  });

  it('each periodic job runs once per interval across the cluster', async () => {
    const { knex } = await testDatabase();
    // The inbound republish sweep ticks every 5 s on each api node: watch its lease for 16 s.
    const runs: number[] = [];
    const until = Date.now() + 16_000;
    while (Date.now() < until) {
      const row = await knex('periodic_job_runs').where({ name: 'inbound republish sweep' }).first('ran_at', 'node');
      const at = row ? new Date(row.ranAt).getTime() : 0;
      if (row && at !== runs[runs.length - 1]) runs.push(at);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each node on its own would run it about every 2.5 s between them; once per interval, never closer
    // than 0.9 × 5 s, whichever node ran it.
    const gaps = runs.slice(1).map((t, i) => t - runs[i]!);
    expect(gaps.length, 'runs seen').to.be.within(2, 4);
    for (const gap of gaps) expect(gap, `gaps ${gaps.join(', ')} ms`).to.be.at.least(4400);
  });

  it('kill -9 of an api node under traffic: nothing acknowledged is lost, nothing appears twice in the agent’s list or the conversation, the other node serves the retries', async () => {
    const { knex } = await testDatabase();
    const team = await makeTeam();
    const agent = new Agent(cluster.mqttWsUrl, team.ws.id, team.owner.id, team.owner.token);
    try {
      await agent.ready();
      // Four visitors, ten messages each (one visitor may send 30 a minute).
      const visitors: { id: string; token: string }[] = [];
      for (let v = 0; v < 4; v++) visitors.push((await widgetMessage(cluster.url, team, `Olá ${v}`)).body.data.visitor);
      const sent = Array.from({ length: 40 }, (_, i) => ({ visitor: visitors[i % 4]!, id: clientMessageId(), text: `em voo ${i}`, acked: undefined as number | undefined }));
      let acked = 0;
      let killing: Promise<void> | undefined;
      await Promise.all(
        sent.map(async (s) => {
          try {
            const res = await widgetMessage(cluster.url, team, s.text, { token: s.visitor.token, id: s.id });
            if (res.status === 201) {
              s.acked = res.body.data.message.id;
              if (++acked === 10) killing = cluster.kill('api-1');
            }
          } catch {
            /* cut by the kill: not acknowledged */
          }
        }),
      );
      await killing;
      // The widget retries what got no answer, with the same ids, through the load balancer (node B now).
      for (const s of sent.filter((x) => x.acked === undefined)) {
        const res = await widgetMessage(cluster.url, team, s.text, { token: s.visitor.token, id: s.id });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        s.acked = res.body.data.message.id;
      }
      const stored = await knex('messages').where({ channelId: team.widget.id }).whereIn('external_id', sent.map((s) => `v:${s.visitor.id}:${s.id}`)).select('id');
      expect(stored, 'each message stored once').to.have.length(sent.length);
      await eventually(async () => sent.every((s) => agent.newMessageIds().includes(s.acked!)), 30_000, 'every message on the agent');
      await new Promise((r) => setTimeout(r, 1000));
      // The broker outlived the node: an event the killed node published but had not yet marked as
      // published is published again by the survivor's sweep (at least once). The agent's list folds
      // events by message id (the UI's upsertMessage), so each message is in it once; and the
      // conversation's messages, read through the other node, hold each once.
      const list = new Map<number, number>();
      for (const id of agent.newMessageIds()) list.set(id, (list.get(id) ?? 0) + 1);
      for (const s of sent) expect(list.has(s.acked!), s.text).to.equal(true);
      const repeated = [...list.values()].filter((n) => n > 1).length;
      expect(repeated, 'repeats only of the messages in flight at the kill').to.be.at.most(sent.length - 10);
      for (const v of visitors) {
        const conversation = await knex('customer_platforms').where({ channelId: team.widget.id, externalId: v.id }).first('id');
        const res = await call(nodeB, 'GET', `/api/inbox/messages?id=${conversation.id}&limit=100`, { token: team.owner.token });
        const ids = (res.body.data as { id: number }[]).map((m) => m.id);
        expect(new Set(ids).size, 'no message twice in the conversation').to.equal(ids.length);
        expect(ids).to.include.members(sent.filter((s) => s.visitor === v).map((s) => s.acked!));
      }
    } finally {
      await agent.close();
      await cluster.start('api-1');
    }
  });

  it('kill -9 of a worker holding channel sends: they are retried on the other worker within the heartbeat timeout, each sent once', async () => {
    const { knex } = await testDatabase();
    const team = await makeTeam();
    const botToken = telegram.addBot().token;
    const line = await call(nodeA, 'POST', '/api/integrations/telegram', { token: team.owner.token, body: { identifier: botToken, description: 'Bot da loja' } });
    expect(line.status, JSON.stringify(line.body)).to.equal(201);
    const secret = telegram.webhooks.get(botToken)!.secret_token!;
    const user = { id: 7_000_000 + Math.floor(Math.random() * 10 ** 6), first_name: 'Ana' };
    expect((await postUpdate(`${nodeB}/api/hooks/telegram/${line.body.data.identifier}`, messageUpdate(user, { text: 'Oi' }), secret)).status).to.equal(200);
    const conversation = await eventually<{ id: number }>(async () => knex('customer_platforms').where({ channelId: line.body.data.id }).first('id'), 20_000, 'the conversation');

    // Ten replies, each a channel-send workflow. Telegram holds every sendMessage: each attempt is in flight
    // (its message row locked, its request waiting for the answer) when worker 1 dies.
    const texts = Array.from({ length: 10 }, (_, i) => `resposta ${i} ${Math.random().toString(36).slice(2, 8)}`);
    const ids: number[] = [];
    let killedAt = 0;
    telegram.hold();
    try {
      for (const [i, text] of texts.entries()) {
        const res = await call(i % 2 ? nodeA : nodeB, 'POST', '/api/inbox/messages', { token: team.owner.token, body: { id: conversation.id, content: [{ insert: `${text}\n` }], type: 0 } });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        ids.push(res.body.data.id);
      }
      const inFlight = () => texts.filter((t) => [...telegram.waiting].some((w) => w.includes(t))).length;
      await eventually(async () => inFlight() === texts.length, 60_000, 'every send waiting for Telegram');
      killedAt = Date.now();
      await cluster.kill('worker-1');
      // Its requests' connections close with it: those sends never reach Telegram. The kernel closes all of
      // them at the exit, but the fake hears of each close on its own turn: the gate opens only once no
      // close has come for a second, so none of the dead worker's requests is let through as if alive.
      await eventually(async () => telegram.dropped.some((d) => d.at >= killedAt), 10_000, 'a send held by the killed worker');
      await eventually(async () => Date.now() - Math.max(...telegram.dropped.map((d) => d.at)) >= 1000, 10_000, 'no more sends of the killed worker dropped');
    } finally {
      telegram.letGo();
    }
    try {
      // The killed worker's attempts stop heartbeating: Temporal retries them on the other worker after the
      // heartbeat timeout (10 s, workflows/channels/channelSend.ts), not the 2-minute start-to-close timeout.
      await eventually(async () => (await knex('messages').whereIn('id', ids).where({ deliveryState: 'sent' })).length === ids.length, 90_000, 'every reply sent');
      const took = Date.now() - killedAt;
      expect(took, `every reply sent ${took} ms after the kill`).to.be.below(SEND_RETRY_BOUND_MS);
      const sent = telegram.callsOf('sendMessage').map((c) => String(c.params.text));
      for (const text of texts) expect(sent.filter((t) => t.includes(text)), text).to.have.length(1);
    } finally {
      await cluster.start('worker-1');
    }
  });

  it('kill -9 of the worker holding a WhatsApp QR socket: the session resumes on the other worker from its stored session, and messages go out through it once', async () => {
    const { knex } = await testDatabase();
    const team = await makeTeam();
    const customer = `55119${String(Math.floor(Math.random() * 10 ** 8)).padStart(8, '0')}@s.whatsapp.net`;
    const hello = { key: { remoteJid: customer, fromMe: false, id: `3EB0${Math.random().toString(16).slice(2, 14).toUpperCase()}` }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: 'Maria', message: { conversation: 'Oi, quero falar com a loja' } };
    // The customer's message arrives when the socket opens; a resumed socket gets it again (history), as
    // WhatsApp does. Set before the line exists: its socket may open before the api answers.
    whatsappWeb.onOpen = (_id, linked) => [{ event: 'messages.upsert', arg: { type: linked ? 'append' : 'notify', messages: [hello] } }];
    const created = await call(nodeA, 'POST', '/api/integrations/whatsapp', { token: team.owner.token, body: { name: 'Linha da loja', phone: `55119${String(Math.floor(Math.random() * 10 ** 8)).padStart(8, '0')}`, provider: 'qr' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const channelId = created.body.data.id as number;
    const workerOf = (pid: number) => ['worker-1', 'worker-2'].find((n) => cluster.processes.get(n)?.child.pid === pid);

    const first = await eventually(async () => whatsappWeb.sessionsOf(channelId)[0], 60_000, "the line's socket on a worker");
    const holder = workerOf(first.pid)!;
    const other = holder === 'worker-1' ? 'worker-2' : 'worker-1';
    expect(holder, 'a cluster worker holds the socket').to.be.a('string');
    const conversation = await eventually<{ id: number }>(async () => knex('customer_platforms').where({ channelId, externalId: customer }).first('id'), 20_000, 'the conversation');
    const queueOf = async () => ((await knex('whatsapp_connections').where({ channelId }).first('session_queue'))?.sessionQueue as string | null | undefined) ?? undefined;
    const holderQueue = await eventually(queueOf, 20_000, "the socket's queue noted");
    const reply = async (text: string) => {
      const res = await call(nodeB, 'POST', '/api/inbox/messages', { token: team.owner.token, body: { id: conversation.id, content: [{ insert: `${text}\n` }], type: 0 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data.id as number;
    };
    const sentOnce = async (id: number, through: string) => {
      await eventually(async () => (await knex('messages').where({ id }).first('delivery_state')).deliveryState === 'sent', 120_000, `message ${id} sent`);
      const sends = whatsappWeb.sentOn(channelId).filter((s) => s.messageId === qrMessageId(`balcao-msg-${id}`, 0));
      expect(sends, `message ${id} through the socket once`).to.have.length(1);
      expect(workerOf(sends[0]!.pid), `message ${id} through the socket's worker`).to.equal(through);
    };
    const before = await reply('Antes da queda');
    await sentOnce(before, holder);

    try {
      const killedAt = Date.now();
      await cluster.kill(holder);
      // Sent while the socket moves: routed to the dead worker's queue (nobody takes it for 30 s), then tried
      // once on the shared queue — sent there by the worker holding the socket by then, or counted as not
      // connected and routed afresh to it (docs/outbound.md "WhatsApp QR lines").
      const during = await reply('Enquanto a linha troca de worker');
      const resumed = await eventually(async () => whatsappWeb.sessionsOf(channelId).find((s) => s.session > first.session), 90_000, 'the socket on the other worker');
      expect(workerOf(resumed.pid), 'the surviving worker').to.equal(other);
      expect(resumed.linked, 'resumed from the session stored in PostgreSQL: no new QR').to.equal(true);
      const took = resumed.openedAt - killedAt;
      // The session activity's heartbeat timeout (20 s, workflows/channels/whatsappConnection.ts), its 1 s retry.
      expect(took, `socket reopened ${took} ms after the kill`).to.be.below(QR_RESUME_BOUND_MS);
      expect(whatsappWeb.sessionsOf(channelId), 'one socket per opening: the dead one and the new one').to.have.length(2);
      // Sends now reach the line through the surviving worker's own queue.
      await eventually(async () => ((await queueOf()) ?? holderQueue) !== holderQueue, 20_000, "the new socket's queue noted");
      await sentOnce(during, other);
      await sentOnce(await reply('Depois da retomada'), other);
      // The history replayed to the resumed socket stored nothing twice.
      expect(await knex('messages').where({ channelId, externalId: hello.key.id }).select('id')).to.have.length(1);
    } finally {
      // Done with the line: its connection ends, and the restarted worker's reconcile leaves a disconnected line alone.
      await knex('channels').where({ id: channelId }).update({ status: 'disconnected' });
      await stopWorkflow(workflowIds.channel(channelId));
      whatsappWeb.onOpen = () => [];
      await cluster.start(holder);
    }
  });
});
