import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { buildMatrix, visibleIds } from '../policy/matrix';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { loadViewer } from '../../api/policy/conversations';
import { CANDIDATE_CAP, candidatePageQuery, candidatesQuery, fullTextMatch, RECENT_WINDOWS_DAYS, walkPageQuery } from '../../api/inbox/search';
import { delta, freshInbox, inboundMessage, makeConversation, type TestChannel, type TestConversation } from './factories';

interface Part {
  text: string;
  match: boolean;
}
interface Hit {
  id: number;
  conversationId: number;
  type: number;
  sender: string;
  snippet: Part[];
  conversation: { id: number; name: string; isFinished: boolean };
}

const marked = (snippet: Part[]) => snippet.filter((p) => p.match).map((p) => p.text);

describe('GET /inbox/search: contacts, protocols and message text across every segment', function () {
  this.timeout(120_000);
  let api: TestApi;
  let knex: Knex;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
  });
  after(() => api.close());

  const fresh = (level: 10 | 3 = 10) => freshInbox(knex, api.config.jwtSecret, level);

  /** A customer message in an existing conversation, the way a channel delivers it. */
  async function customerSays(channel: TestChannel, c: TestConversation, text: string): Promise<number> {
    const r = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: c.visitor }, content: delta(text) }));
    return r.messageId;
  }

  async function search(token: string, q: string, page?: number): Promise<ApiResponse> {
    const params = new URLSearchParams({ q, ...(page ? { page: String(page) } : {}) });
    return api.request('GET', `/api/inbox/search?${params}`, { token });
  }

  async function hits(token: string, q: string): Promise<Hit[]> {
    const res = await search(token, q);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.messages.data;
  }

  it('finds a word of an earlier message (not the last one), accents folded and stemmed, with the match marked', async () => {
    const { op, channel } = await fresh();
    const c = await makeConversation(api.deps, channel, { text: 'Bom dia' });
    const early = await customerSays(channel, c, 'Vocês fazem Tórta de limão para a ação de Natal?');
    await customerSays(channel, c, 'Obrigado!');
    await makeConversation(api.deps, channel, { text: 'Outra conversa sem relação' });

    for (const q of ['torta', 'TORTA', 'tortas', 'acao', 'ação', 'limao']) {
      const found = await hits(op.token, q);
      expect(found.map((h) => h.id), q).to.deep.equal([early]);
      expect(found[0].conversationId).to.equal(c.conversationId);
      expect(found[0].conversation.id).to.equal(c.conversationId);
    }
    const [hit] = await hits(op.token, 'torta acao');
    expect(marked(hit.snippet)).to.deep.equal(['Tórta', 'ação']);
    expect(hit.snippet.map((p) => p.text).join('')).to.equal('Vocês fazem Tórta de limão para a ação de Natal?');
    // The stemmer: a plural in the text is found by the singular.
    const plural = await customerSays(channel, c, 'Quero duas tortas');
    expect((await hits(op.token, 'torta')).map((h) => h.id)).to.deep.equal([plural, early]);
  });

  it('returns user text as plain parts: markup and the highlight markers in a message are only text', async () => {
    const { op, channel } = await fresh();
    const c = await makeConversation(api.deps, channel);
    const id = await customerSays(channel, c, '<b>pudim</b> \uE000falso\uE001 <script>x</script>');
    const [hit] = await hits(op.token, 'pudim');
    expect(hit.id).to.equal(id);
    expect(marked(hit.snippet)).to.deep.equal(['pudim']);
    const text = hit.snippet.map((p) => p.text).join('');
    expect(text).to.contain('<b>').and.contain('<script>').and.contain('falso');
  });

  it('finds a resolved conversation whichever segment the agent is in, by name, phone, e-mail and protocol', async () => {
    const { op, channel } = await fresh();
    const c = await makeConversation(api.deps, channel, { name: 'Márcia Quitanda' });
    const { customerId } = await knex('customer_platforms').where({ id: c.conversationId }).first('customer_id');
    await knex('customers').where({ id: customerId }).update({ phone: '5511987654321', email: 'marcia.quitanda@exemplo.com.br' });
    await customerSays(channel, c, 'Pedido de brigadeiro');
    const resolved = await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: op.token, body: { status: 'resolve' } });
    expect(resolved.status, JSON.stringify(resolved.body)).to.equal(200);
    const { protocol } = await knex('calls').where({ id: c.callId }).first('protocol');

    // The name with accents folded either way: 'marcia' finds 'Márcia'.
    for (const q of ['Quitanda', 'márcia', 'marcia', 'MARCIA QUITANDA', '987654321', '(11) 98765-4321', 'marcia.quitanda@', String(protocol)]) {
      const res = await search(op.token, q);
      expect(res.status).to.equal(200);
      const ids = res.body.conversations.data.map((v: { id: number }) => v.id);
      expect(ids, q).to.include(c.conversationId);
      expect(res.body.conversations.data.find((v: { id: number }) => v.id === c.conversationId).isFinished).to.equal(true);
    }
    expect((await hits(op.token, 'brigadeiro')).map((h) => h.conversationId)).to.deep.equal([c.conversationId]);
  });

  it("never returns another workspace's conversations or messages", async () => {
    const mine = await fresh();
    const theirs = await fresh();
    const word = `jabuticaba${Date.now()}`;
    const other = await makeConversation(api.deps, theirs.channel, { name: `Cliente ${word}`, text: `Quero ${word}` });
    await customerSays(theirs.channel, other, `Mais ${word}`);
    const res = await search(mine.op.token, word);
    expect(res.status).to.equal(200);
    expect(res.body.conversations.data).to.deep.equal([]);
    expect(res.body.messages.data).to.deep.equal([]);
    // The same search in their workspace does find them: the word is searchable.
    const theirsRes = await search(theirs.op.token, word);
    expect(theirsRes.body.conversations.data.map((v: { id: number }) => v.id)).to.deep.equal([other.conversationId]);
    expect(theirsRes.body.messages.data).to.have.length(2);
  });

  it('searches customer and agent messages and private notes, never bot or system lines or deleted messages', async () => {
    const { ws, op, channel } = await fresh();
    const c = await makeConversation(api.deps, channel, { operatorId: null });
    const reply = await api.request('POST', '/api/inbox/messages', { token: op.token, body: { id: c.conversationId, type: 0, content: delta('Temos quindim hoje') } });
    expect(reply.status, JSON.stringify(reply.body)).to.equal(201);
    const note = await api.request('POST', '/api/inbox/messages', { token: op.token, body: { id: c.conversationId, type: 2, content: delta('Nota: cliente gosta de quindim') } });
    expect(note.status).to.equal(201);
    const base = { workspaceId: ws.id, customerPlatformId: c.conversationId, callId: c.callId, content: JSON.stringify(delta('quindim')), text: 'quindim do bot' };
    await knex('messages').insert([
      { ...base, sender: 'bot', type: 3 },
      { ...base, sender: 'system', type: 1 },
      { ...base, sender: 'customer', type: 0, isDeleted: true },
    ]);
    const found = await hits(op.token, 'quindim');
    expect(found.map((h) => h.id).sort()).to.deep.equal([reply.body.data.id, note.body.data.id].sort());
    expect(found.find((h) => h.id === note.body.data.id)!.type).to.equal(2);
  });

  it('pages conversations and messages 20 at a time', async () => {
    const { op, channel } = await fresh();
    const made: number[] = [];
    for (let i = 0; i < 23; i++) made.push((await makeConversation(api.deps, channel, { name: `Goiabada ${i}`, text: `goiabada cascão ${i}` })).conversationId);
    const first = await search(op.token, 'goiabada');
    expect(first.body.conversations.data).to.have.length(20);
    expect(first.body.conversations.hasMore).to.equal(true);
    expect(first.body.messages.data).to.have.length(20);
    expect(first.body.messages.hasMore).to.equal(true);
    const second = await search(op.token, 'goiabada', 2);
    expect(second.body.conversations.data).to.have.length(3);
    expect(second.body.conversations.hasMore).to.equal(false);
    expect(second.body.messages.hasMore).to.equal(false);
    const all = [...first.body.conversations.data, ...second.body.conversations.data].map((v: { id: number }) => v.id);
    expect([...all].sort((a, b) => a - b)).to.deep.equal(made);
    const allHits = [...first.body.messages.data, ...second.body.messages.data].map((h: Hit) => h.conversationId);
    expect([...allHits].sort((a, b) => a - b)).to.deep.equal(made);
  });

  it('level 10 to 2: message hits and conversations are exactly the ones each viewer may open', async () => {
    const m = await buildMatrix(api.deps);
    const word = 'paçoca';
    for (const c of m.conversations) {
      await receiveInbound(api.deps, inboundMessage(m.channel, { identity: { externalId: c.visitor, name: `Cliente ${c.visitor}` }, content: delta(`Tem ${word}?`) }));
    }
    for (const v of m.viewers) {
      const got: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await search(v.token, 'pacoca', page);
        expect(res.status).to.equal(200);
        got.push(...res.body.messages.data.map((h: Hit) => h.conversationId));
        if (!res.body.messages.hasMore) break;
      }
      expect([...got].sort((a, b) => a - b), v.label).to.deep.equal(visibleIds(m, v));
      // A common word walks the newest messages instead of reading the candidates (CANDIDATE_CAP): same page.
      const viewer = await loadViewer(knex, { workspaceId: m.ws.id, operatorId: v.id, accessLevel: v.accessLevel });
      const input = { q: 'pacoca', page: 1 };
      const walked: { rows: { id: string }[] } = await walkPageQuery(knex, viewer, input, fullTextMatch('pacoca'));
      const candidates: { rows: { id: string }[] } = await candidatesQuery(knex, viewer, fullTextMatch('pacoca'));
      expect(candidates.rows).to.have.length(m.conversations.length);
      const read: { rows: { id: string }[] } = await candidatePageQuery(knex, viewer, input, candidates.rows.map((r) => Number(r.id)));
      expect(walked.rows.map((r) => Number(r.id)), v.label).to.deep.equal(read.rows.map((r) => Number(r.id)));
      expect(walked.rows.length, v.label).to.equal(Math.min(21, visibleIds(m, v).length));
      const byName = await search(v.token, 'Cliente visitante');
      const names = byName.body.conversations.data.map((c: { id: number }) => c.id);
      const expected = visibleIds(m, v);
      expect(names.every((id: number) => expected.includes(id)), v.label).to.equal(true);
    }
  });

  it('pages a common word (more matches than CANDIDATE_CAP) newest first, whether the last day holds its page or only months do', async () => {
    const { op, channel } = await fresh();
    const c = await makeConversation(api.deps, channel, { text: 'Bom dia' });
    const seedId = await customerSays(channel, c, 'primeira mensagem');
    // Over CANDIDATE_CAP matches of each word, written straight into the table: 'pamonha' has 30 in the last
    // day (the first window holds pages 1 and part of 2), 'curau' only 6 in the last 7 days and the rest two
    // to three months back (every window falls short: the unbounded walk answers).
    const copy = (word: string, n: number, ageSql: string) =>
      knex.raw(
        `INSERT INTO messages (workspace_id, channel_id, customer_platform_id, call_id, content, text, type, sender, created_at)
         SELECT workspace_id, channel_id, customer_platform_id, call_id, content, ? || ' ' || g, type, sender, now() - (${ageSql})
         FROM messages, generate_series(1, ?) g WHERE id = ?`,
        [word, n, seedId],
      );
    await copy('pamonha', 30, "g * interval '40 minutes'");
    await copy('pamonha', CANDIDATE_CAP, "interval '40 days' + g * interval '1 minute'");
    await copy('curau', 6, "g * interval '1 day'");
    await copy('curau', CANDIDATE_CAP, "interval '60 days' + g * interval '1 minute'");
    await knex.raw('ANALYZE messages');
    expect(RECENT_WINDOWS_DAYS[0]).to.equal(1);
    for (const word of ['pamonha', 'curau']) {
      for (const page of [1, 2, 3]) {
        const expected = await knex('messages')
          .where({ customerPlatformId: c.conversationId })
          .whereRaw("to_tsvector('balcao_pt', text) @@ websearch_to_tsquery('balcao_pt', ?)", [word])
          .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
          .offset((page - 1) * 20)
          .limit(21)
          .pluck('id');
        const res = await search(op.token, word, page);
        expect(res.status).to.equal(200);
        expect(res.body.messages.data.map((h: Hit) => h.id), `${word} page ${page}`).to.deep.equal(expected.slice(0, 20).map(Number));
        expect(res.body.messages.hasMore).to.equal(expected.length > 20);
      }
    }
  });

  it('answers a bad query with 400 in the error shape', async () => {
    const { op } = await fresh();
    const cases: [string, string][] = [
      ['', 'q'],
      ['?q=', 'q'],
      ['?q=%20a%20', 'q'],
      [`?q=${'x'.repeat(201)}`, 'q'],
      ['?q=torta&page=0', 'page'],
      ['?q=torta&page=abc', 'page'],
      ['?q=torta&page=51', 'page'],
    ];
    for (const [qs, key] of cases) {
      const res = await api.request('GET', `/api/inbox/search${qs}`, { token: op.token });
      expect(res.status, qs).to.equal(400);
      expect(res.body.errors[0].key, qs).to.equal(key);
      expect(res.body.errors[0].descriptions[0]).to.be.a('string').and.not.equal('');
    }
    // Query syntax is not an error: unbalanced quotes and operators are words.
    for (const q of ['"torta', 'torta & | !', "o'brien", 'de o a']) {
      const res = await search(op.token, q);
      expect(res.status, q).to.equal(200);
    }
  });
});
