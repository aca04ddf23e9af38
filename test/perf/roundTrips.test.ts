import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { cancelScheduledHandBacks } from '../../api/assignment/handBackAbsent';
import { makeWidget, type TestWidget } from '../widget/helpers';
import { makeGroup } from '../inbox/factories';

/**
 * SQL round trips of the calls a person waits for (issue 31; docs/performance.md): one inbound widget
 * message from a returning visitor and from a first contact, one inbox page and one counter request, each
 * counted on the api's own knex (its `query` event: every statement the api sends, prepared ones included,
 * api/db/prepared.ts). A count is a number of statements, not a time: it does not depend on how busy the
 * machine is. Each figure is the fewest statements over ATTEMPTS tries, because the only things that can
 * add a statement to a window are not the call's: a timer of another test file firing on the run's shared
 * knex, or the per-process membership cache (api/auth/membershipCache.ts) aging out between the warm-up
 * and the counted request. A statement added to any of these calls raises every try, so it fails here.
 */

/**
 * What each call takes today, as its bound: one statement more fails. The targets are ≤ 4 and ≤ 6
 * for ingest; the inbox calls' bounds are the counts reached (issue 31's list and counters work).
 */
const BOUNDS = {
  /** Visitor by token; the message's one statement (api/inbound/ingestStatement.ts); the published mark. */
  returningVisitor: 3,
  /** Widget channel; the visitor's row; the one statement (contact, conversation, call, message); the published mark. */
  firstContact: 4,
  /** The caller's groups (the viewer); the page; its calls' tags. */
  inboxPage: 3,
  /** The caller's groups; the subscribed segments; every count in one statement. */
  counters: 3,
};
const ATTEMPTS = 3;

describe('SQL round trips per call (regression guard)', () => {
  let api: TestApi;
  let owner: TestOperator;
  let agent: TestOperator;
  let widget: TestWidget;

  before(async function () {
    this.timeout(60_000);
    api = await startTestApi();
    const knex = api.deps.knex;
    const ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    await makeGroup(knex, ws, [agent.id]);
    widget = await makeWidget(api, owner);
    // A subscribed custom segment for the counters, and a few conversations for the pages.
    const saved = await api.request('POST', '/api/inbox/segments', { token: owner.token, body: { name: 'Sem responsável', isPublic: true, filters: { assigned: false } } });
    expect(saved.status, JSON.stringify(saved.body)).to.be.oneOf([200, 201]);
    for (const who of [owner, agent]) {
      const sub = await api.request('POST', `/api/inbox/segments/subscribe/${saved.body.data.id}`, { token: who.token });
      expect(sub.status, JSON.stringify(sub.body)).to.equal(200);
    }
    for (let i = 0; i < 3; i++) expect((await send(`Conversa ${i}`)).status).to.equal(201);
  });
  beforeEach(() => api.deps.rateLimiter.reset());
  after(() => api.close());

  const send = (content: string, token?: string) =>
    api.request('POST', '/api/v1/widget/messages', { body: { content, type: 'text', identifier: widget.identifier }, token });

  /** The statements `body` sends through the api's knex. */
  async function statementsOf(body: () => Promise<unknown>): Promise<string[]> {
    // A hand-back timer an earlier file left (an agent gone offline) would add its own statements.
    cancelScheduledHandBacks();
    const sql: string[] = [];
    const on = (q: { sql: string }) => sql.push(q.sql);
    api.deps.knex.on('query', on);
    try {
      await body();
    } finally {
      api.deps.knex.removeListener('query', on);
    }
    return sql;
  }

  /** The fewest statements of `attempt` over ATTEMPTS tries (see the file's comment), with that try's SQL for the message. */
  async function fewest(attempt: () => Promise<string[]>): Promise<string[]> {
    let best: string[] | undefined;
    for (let i = 0; i < ATTEMPTS; i++) {
      const sql = await attempt();
      if (!best || sql.length < best.length) best = sql;
    }
    return best!;
  }

  it(`a returning visitor's widget message: at most ${BOUNDS.returningVisitor} round trips`, async () => {
    const first = await send('Olá');
    const token: string = first.body.data.visitor.token;
    const sql = await fewest(() => statementsOf(async () => expect((await send('De novo', token)).status).to.equal(201)));
    expect(sql.length, sql.join('\n')).to.be.at.most(BOUNDS.returningVisitor);
  });

  it(`a first contact's widget message: at most ${BOUNDS.firstContact} round trips`, async () => {
    const sql = await fewest(() => statementsOf(async () => expect((await send('Primeira mensagem')).status).to.equal(201)));
    expect(sql.length, sql.join('\n')).to.be.at.most(BOUNDS.firstContact);
  });

  /** A request of `who` counted after the same request once uncounted (the token's membership then in the process's cache). */
  async function warmRequest(method: string, path: string, who: TestOperator): Promise<string[]> {
    const call = async () => {
      const res = await api.request(method, path, { token: who.token, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    return fewest(async () => {
      await call();
      return statementsOf(call);
    });
  }

  it(`an inbox page (GET /api/inbox, owner and agent, page 1 and the next by cursor): at most ${BOUNDS.inboxPage} round trips`, async () => {
    for (const who of [owner, agent]) {
      const page1 = await api.request('GET', '/api/inbox?segmentId=all&limit=2', { token: who.token });
      expect(page1.status).to.equal(200);
      const cursor: string | undefined = page1.body.nextCursor;
      for (const query of ['segmentId=all&limit=2', ...(cursor ? [`segmentId=all&limit=2&cursor=${encodeURIComponent(cursor)}`] : [])]) {
        const sql = await warmRequest('GET', `/api/inbox?${query}`, who);
        expect(sql.length, sql.join('\n')).to.be.at.most(BOUNDS.inboxPage);
      }
    }
  });

  it(`a counter request (POST /api/inbox/counter, owner and agent, with a subscribed segment): at most ${BOUNDS.counters} round trips`, async () => {
    for (const who of [owner, agent]) {
      const sql = await warmRequest('POST', '/api/inbox/counter', who);
      expect(sql.length, sql.join('\n')).to.be.at.most(BOUNDS.counters);
    }
  });
});
