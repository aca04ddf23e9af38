import { expect } from 'chai';
import { testDatabase } from '../helpers/db';
import { testTemporalAddress } from '../helpers/temporal';
import { ChildApi } from './support/childApi';
import { Agent } from './support/agent';
import { clientMessageId, eventually, firstContact, makeTeam, sendAsVisitor, type Team, type Visitor } from './support/fixtures';

interface Sent {
  visitor: Visitor;
  clientId: string;
  text: string;
  acked?: number;
}

const externalId = (s: Sent) => `v:${s.visitor.id}:${s.clientId}`;

/**
 * kill -9 of the api process (a real child: no shutdown hook runs, its embedded broker dies with it) while
 * widget messages are being acknowledged. An agent's real mqtt.js client stays subscribed throughout and
 * reconnects to the restarted api by itself.
 */
describe('Reliability: kill -9 of the api right after it acknowledged inbound messages', function () {
  this.timeout(120_000);
  let api: ChildApi;
  let team: Team;
  let agent: Agent;

  before(async () => {
    const { url } = await testDatabase();
    api = new ChildApi({ databaseUrl: url, temporalAddress: await testTemporalAddress() });
    await api.start();
  });
  after(async () => {
    await agent?.close();
    await api?.stop();
  });
  beforeEach(async () => {
    if (!api.running) await api.start();
    const { knex } = await testDatabase();
    team = await makeTeam(knex, api);
    await agent?.close();
    agent = new Agent(api.wsUrl, team.ws.id, team.owner.id, team.owner.token);
    await agent.ready();
  });

  it('every acknowledged message is stored and reaches the agent once, live or in the refetch a lost session calls for; the unacknowledged ones, retried with their id, too', async () => {
    const { knex } = await testDatabase();
    const visitors = await Promise.all(Array.from({ length: 4 }, (_, i) => firstContact(api, team, `Olá ${i}`)));
    await eventually(async () => visitors.every((v) => agent.newMessageIds().includes(v.messageId)), 10_000, 'first contacts published');

    // 40 messages at once; the api is killed as soon as 8 of them were acknowledged.
    const sent: Sent[] = visitors.flatMap((visitor, v) => Array.from({ length: 10 }, (_, i) => ({ visitor, clientId: clientMessageId(), text: `visitante ${v} mensagem ${i}` })));
    let acked = 0;
    let killing: Promise<void> | undefined;
    await Promise.all(
      sent.map(async (s) => {
        try {
          const res = await sendAsVisitor(api, team, s.visitor, s.text, s.clientId);
          if (res.status === 201) {
            s.acked = res.body.data.message.id;
            if (++acked === 8) killing = api.kill();
          }
        } catch {
          /* connection lost: not acknowledged */
        }
      }),
    );
    await killing;
    expect(api.running).to.equal(false);
    const ackedSent = sent.filter((s) => s.acked !== undefined);
    expect(ackedSent.length, 'acknowledged before the kill').to.be.at.least(8);

    // Every acknowledged message is in the database, as acknowledged, once.
    const stored = await knex('messages').where({ channelId: team.widget.id }).whereIn('external_id', sent.map(externalId)).select('id', 'external_id');
    const byExternal = new Map(stored.map((r) => [r.externalId as string, r.id as number]));
    expect(byExternal.size, 'no external id stored twice').to.equal(stored.length);
    for (const s of ackedSent) expect(byExternal.get(externalId(s)), s.text).to.equal(s.acked);

    // Restart; the widget retries what it got no answer for, with the same ids.
    await api.start();
    const retried = sent.filter((s) => s.acked === undefined);
    for (const s of retried) {
      const res = await sendAsVisitor(api, team, s.visitor, s.text, s.clientId);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      s.acked = res.body.data.message.id;
    }
    const all = await knex('messages').where({ channelId: team.widget.id }).whereIn('external_id', sent.map(externalId)).select('id');
    expect(all).to.have.length(sent.length);

    // The agent reconnected by itself, to a broker that died with the api: no session (clean start), so the
    // app refetches (ui/src/realtime/session.ts, 'refetch'; test/reliability/mqttReconnect.test.ts). A
    // message stored before the kill reaches the agent live or in that refetch: its chat.newMessage may have
    // been handed to the dead broker and marked published while the packet was still on its way to the
    // socket. A message first stored after the restart must come live.
    await agent.ready(2);
    const list = await api.request('GET', '/api/inbox?segmentId=all', { token: team.owner.token });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const refetched = new Set<number>();
    for (const c of list.body.data as { id: number }[]) {
      const messages = await api.request('GET', `/api/inbox/messages?id=${c.id}`, { token: team.owner.token });
      expect(messages.status, JSON.stringify(messages.body)).to.equal(200);
      for (const m of messages.body.data as { id: number }[]) refetched.add(m.id);
    }
    const storedBeforeKill = new Set(byExternal.values());
    const reaches = (s: Sent) => agent.newMessageIds().includes(s.acked as number) || (storedBeforeKill.has(s.acked as number) && refetched.has(s.acked as number));
    await eventually(async () => sent.every(reaches), 30_000, 'every message published or refetched');
    const liveOnly = sent.filter((s) => !storedBeforeKill.has(s.acked as number));
    await eventually(async () => liveOnly.every((s) => agent.newMessageIds().includes(s.acked as number)), 30_000, 'every message stored after the restart published');
    await new Promise((r) => setTimeout(r, 1000));
    const received = agent.newMessageIds();
    for (const s of sent) expect(received.filter((id) => id === s.acked), `${s.text}: never twice`).to.have.length.at.most(1);
    // A message committed but not answered before the kill, retried after the restart, reached the agent through
    // the retry; its own event is marked by the recovery sweep (events older than 10 s, every 5 s), which may
    // come after: nothing stays unpublished.
    await eventually(
      async () => (await knex('inbound_events').where({ channelId: team.widget.id }).whereIn('external_id', sent.map(externalId)).whereNull('published_at')).length === 0,
      30_000,
      'every event marked published',
    );
  });

  it('a message committed but not yet published when the api died is published after the restart, once', async () => {
    const { knex } = await testDatabase();
    const visitor = await firstContact(api, team, 'Olá');
    const ids = [clientMessageId(), clientMessageId(), clientMessageId()];
    const answers = await Promise.all(ids.map((id, i) => sendAsVisitor(api, team, visitor, `pedido ${i}`, id)));
    const messageIds = answers.map((res) => res.body.data.message.id as number);
    await api.kill();
    // The state a kill between the commit and the publish leaves: processed, never published.
    await knex('inbound_events')
      .where({ channelId: team.widget.id })
      .whereIn('external_id', ids.map((id) => `v:${visitor.id}:${id}`))
      .update({ publishedAt: null, processedAt: knex.raw("processed_at - interval '1 minute'") });
    agent.events.length = 0;

    await api.start();
    await agent.ready(2);
    await eventually(async () => messageIds.every((id) => agent.newMessageIds().includes(id)), 30_000, 'republished after restart');
    // Several sweep rounds later, still once each.
    await new Promise((r) => setTimeout(r, 6000));
    expect(agent.newMessageIds().filter((id) => messageIds.includes(id)).sort()).to.deep.equal([...messageIds].sort());
    const events = await knex('inbound_events').where({ channelId: team.widget.id }).whereIn('external_id', ids.map((id) => `v:${visitor.id}:${id}`)).select('published_at');
    expect(events.every((e) => e.publishedAt !== null)).to.equal(true);
  });

  it('after a kill -9 with 50 messages in flight, the restarted api serves health and login at once while the backlog is republished, and every interrupted message reaches the agent', async () => {
    const { knex } = await testDatabase();
    const visitors = await Promise.all(Array.from({ length: 5 }, (_, i) => firstContact(api, team, `Olá ${i}`)));
    const sent: Sent[] = visitors.flatMap((visitor, v) => Array.from({ length: 10 }, (_, i) => ({ visitor, clientId: clientMessageId(), text: `em voo ${v}.${i}` })));
    let acked = 0;
    let killing: Promise<void> | undefined;
    await Promise.all(
      sent.map(async (s) => {
        try {
          const res = await sendAsVisitor(api, team, s.visitor, s.text, s.clientId);
          if (res.status === 201 && ++acked === 20) killing = api.kill();
        } catch {
          /* cut by the kill */
        }
      }),
    );
    await killing;
    expect(api.running).to.equal(false);

    // Every message the dead api committed, left as a kill between commit and publish leaves it (the
    // worst case: none of them published), processed long enough ago for the first sweep to take.
    const interrupted = await knex('inbound_events')
      .where({ channelId: team.widget.id })
      .whereIn('external_id', sent.map(externalId))
      .update({ publishedAt: null, processedAt: knex.raw("processed_at - interval '1 minute'") })
      .returning('id');
    const messageIds: number[] = (await knex('messages').where({ channelId: team.widget.id }).whereIn('external_id', sent.map(externalId)).pluck('id')).map(Number);
    expect(messageIds.length, 'messages committed before the kill').to.be.at.least(20).and.equal(interrupted.length);
    agent.events.length = 0;

    // Restart, then health and login are probed without pause until the sweep has published everything.
    const restarting = Date.now();
    await api.start();
    const listening = Date.now() - restarting;
    const probes: { what: string; status: number; ms: number }[] = [];
    let probing = true;
    const probe = (what: string, run: () => Promise<{ status: number; ms: number }>) =>
      run().then(
        (r) => probes.push({ what, status: r.status, ms: r.ms }),
        (err: unknown) => probes.push({ what: `${what} (${String(err)})`, status: 0, ms: Infinity }),
      );
    const prober = (async () => {
      while (probing) {
        await Promise.all([
          // No worker runs beside this api: its own parts (the worker part would say 503 by design).
          probe('health', () => api.request('GET', '/api/health?parts=db,temporal,mqtt', { timeoutMs: 20_000 })),
          probe('login', () => api.request('POST', '/api/operators/login', { body: { email: team.owner.email, password: team.owner.password }, timeoutMs: 20_000 })),
        ]);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      await agent.ready(2);
      await eventually(async () => messageIds.every((id) => agent.newMessageIds().includes(id)), 30_000, 'every interrupted message republished');
      // One more sweep round: nothing goes out twice.
      await new Promise((r) => setTimeout(r, 5500));
    } finally {
      probing = false;
      await prober;
    }
    const received = agent.newMessageIds();
    for (const id of messageIds) expect(received.filter((r) => r === id), `message ${id}`).to.have.length(1);
    expect(await knex('inbound_events').whereIn('id', interrupted.map((r: { id: number }) => r.id)).whereNull('published_at')).to.have.length(0);

    const bad = probes.filter((p) => p.status !== 200 || p.ms > 2000);
    expect(probes.length, 'probes during the sweep').to.be.at.least(20);
    expect(bad, `answers slower than 2 s or not 200 after the restart (${listening} ms to listen): ${JSON.stringify(bad)}`).to.deep.equal([]);
  });
});
