import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { createMemoryRateLimiter, type RateLimiter } from '../../api/http/rateLimit';
import { CHALLENGE_DIFFICULTY, checkSolution, issueChallenge, leadingZeroBits } from '../../api/channels/widget/challenge';
import { channelFreeRule, sourceRange, sourceRules, WIDGET_LIMITS } from '../../api/channels/widget/limits';
import { solveChallenge } from '../../ui/widget/pow';
import { makeWidget, type TestWidget } from './helpers';

const MINUTE = 60_000;

/**
 * What a client that knows the challenge does, with Node's SHA-256 (the widget's own is used below too).
 * It yields now and then, so a kept-alive connection the server closes meanwhile is noticed, not reused.
 */
async function solve(token: string): Promise<string> {
  const [nonce, bits] = token.split('.') as [string, string];
  for (let counter = 0; ; counter++) {
    if (leadingZeroBits(createHash('sha256').update(`${nonce}${counter}`).digest()) >= Number(bits)) return String(counter);
    if (counter % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('widget first contacts: per-source limits, decay in minutes, and a proof of work instead of a locked channel or a refused shared address', function () {
  this.timeout(120_000);
  let api: TestApi;
  let owner: TestOperator;
  let realLimiter: RateLimiter;

  before(async () => {
    // Behind one trusted proxy, so each request can come from the address the test names.
    api = await startTestApi({ trustProxy: 1 });
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    realLimiter = api.deps.rateLimiter;
  });
  beforeEach(async () => {
    api.deps.rateLimiter = realLimiter;
    await realLimiter.reset();
  });
  after(() => api.close());

  const newWidget = () => makeWidget(api, owner);
  const from = (ip: string, widget: TestWidget, extra: Record<string, unknown> = {}, token?: string) =>
    api.request('POST', '/api/v1/widget/messages', {
      headers: { 'X-Forwarded-For': ip },
      token,
      body: { content: 'Olá', type: 'text', identifier: widget.identifier, clientMessageId: randomBytes(8).toString('hex'), ...extra },
    });
  const challengeOf = (res: ApiResponse) => res.headers.get('balcao-challenge');
  const retryAfter = (res: ApiResponse) => Number(res.headers.get('retry-after'));
  const visitors = async (widget: TestWidget) => Number((await api.deps.knex('widget_visitors').where({ channelId: widget.id }).count({ n: '*' }).first())?.n);

  /** Every 429 is in the error shape with a Retry-After of minutes at most. */
  function expectLimited(res: ApiResponse) {
    expect(res.status, JSON.stringify(res.body)).to.equal(429);
    expect(res.body.errors[0].type).to.equal('RateLimitError');
    expect(res.body.errors[0].descriptions[0]).to.be.a('string').and.not.match(/^HTTP/);
    expect(retryAfter(res)).to.be.within(1, 600);
  }

  it('300 first contacts from 16 addresses of one /24 count together: past the free bound they are asked for the challenge, not refused, and a visitor from another network gets in freely', async () => {
    const widget = await newWidget();
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 300; i++) answers.push(await from(`203.0.113.${(i % 16) + 1}`, widget));
    const admitted = answers.filter((r) => r.status === 201);
    expect(admitted).to.have.length(WIDGET_LIMITS.firstContact.range.limit);
    for (const r of answers.filter((a) => a.status !== 201)) {
      expectLimited(r);
      expect(challengeOf(r), 'a challenge, not a refusal').to.be.a('string');
      expect(r.body.errors[0]).to.deep.equal({
        type: 'RateLimitError',
        title: 'Verificação necessária',
        key: 'challenge',
        descriptions: ['Muitas conversas novas a partir da sua rede agora. Seu navegador precisa concluir uma verificação rápida antes de enviar.'],
      });
    }
    const real = await from('198.51.100.7', widget);
    expect(real.status, JSON.stringify(real.body)).to.equal(201);
    expect(real.body.data.visitor.token).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it('many visitors behind one carrier-grade NAT address: past 10 first contacts each is asked for the challenge and, solving it, gets in', async () => {
    const widget = await newWidget();
    const cgnat = '177.20.30.40';
    const { ip } = WIDGET_LIMITS.firstContact;
    for (let i = 0; i < ip.limit; i++) expect((await from(cgnat, widget)).status).to.equal(201);
    for (let person = 0; person < 5; person++) {
      const asked = await from(cgnat, widget);
      expectLimited(asked);
      expect(asked.body.errors[0]).to.include({ key: 'challenge', title: 'Verificação necessária' });
      expect(asked.body.errors[0].descriptions[0]).to.match(/a partir da sua rede agora\. Seu navegador precisa concluir/);
      expect(retryAfter(asked)).to.be.at.most(ip.windowMs / 1000);
      const token = challengeOf(asked)!;
      const solved = await from(cgnat, widget, { challenge: { token, counter: await solve(token) } });
      expect(solved.status, JSON.stringify(solved.body)).to.equal(201);
      expect(solved.body.data.visitor.token).to.match(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(await visitors(widget)).to.equal(ip.limit + 5);
    // Each of those let in, with or without a solution, counts toward the address's hard bound (and nothing
    // else does): filled to it from here, the next first contact is refused outright.
    const { ipHard } = WIDGET_LIMITS.firstContact;
    for (let i = ip.limit + 5; i < ipHard.limit; i++) expect(await realLimiter.take([sourceRules(cgnat).hard[0]!]), `hit ${i + 1}`).to.equal(0);
    const refused = await from(cgnat, widget);
    expectLimited(refused);
    expect(challengeOf(refused), 'past the hard bound: a refusal, not a challenge').to.equal(null);
  });

  it('refuses a source outright, challenge or not, only past its much higher hard bound (an address, and its network)', async () => {
    const widget = await newWidget();
    const { ipHard, rangeHard, ip } = WIDGET_LIMITS.firstContact;
    expect(ipHard.limit).to.be.at.least(20 * ip.limit);
    // As if 300 people behind 177.20.31.1 had got in within the window.
    for (let i = 0; i < ipHard.limit; i++) expect(await realLimiter.take(sourceRules('177.20.31.1').hard)).to.equal(0);
    const refused = await from('177.20.31.1', widget);
    expectLimited(refused);
    expect(challengeOf(refused), 'past the hard bound a challenge would not help').to.equal(null);
    expect(refused.body.errors[0].descriptions[0]).to.match(/^Muitas conversas novas a partir da sua rede\. Tente novamente em \d+ segundos\.$/);
    const token = issueChallenge(api.config, widget.id);
    const solved = await from('177.20.31.1', widget, { challenge: { token, counter: await solve(token) } });
    expectLimited(solved);
    expect(challengeOf(solved)).to.equal(null);
    // Its neighbour on the same /24 still gets in: the network's hard bound is higher still.
    expect((await from('177.20.31.2', widget)).status).to.equal(201);

    for (let i = 0; i < rangeHard.limit; i++) await realLimiter.take([sourceRules('177.20.32.1').hard[1]!]);
    const network = await from('177.20.32.99', widget);
    expectLimited(network);
    expect(challengeOf(network)).to.equal(null);
    expect((await from('177.20.33.1', widget)).status, 'another network').to.equal(201);
  });

  it('300 first contacts from 16 networks put the channel under a burst: the rest get a challenge, a real visitor solves it and gets in, known visitors never notice', async () => {
    const widget = await newWidget();
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 300; i++) answers.push(await from(`10.${i % 16}.7.${(i % 16) + 1}`, widget));
    const admitted = answers.filter((r) => r.status === 201);
    expect(admitted).to.have.length(WIDGET_LIMITS.firstContact.channelFree.limit);
    const challenged = answers.filter((r) => r.status === 429 && challengeOf(r));
    // Every one not let in is asked for the challenge: the channel's burst, or its address past its free bound.
    expect(challenged.length).to.equal(300 - WIDGET_LIMITS.firstContact.channelFree.limit);
    const burstText = /neste canal agora/;
    expect(challenged.filter((r) => burstText.test(r.body.errors[0].descriptions[0]))).to.have.length(16 * WIDGET_LIMITS.firstContact.ip.limit - WIDGET_LIMITS.firstContact.channelFree.limit);
    for (const r of answers.filter((a) => a.status !== 201)) expectLimited(r);
    expect(challenged[0]!.body.errors[0]).to.deep.equal({
      type: 'RateLimitError',
      title: 'Verificação necessária',
      key: 'challenge',
      descriptions: ['Muitas conversas novas neste canal agora. Seu navegador precisa concluir uma verificação rápida antes de enviar.'],
    });
    expect(retryAfter(challenged[0]!)).to.be.at.most(WIDGET_LIMITS.firstContact.channelFree.windowMs / 1000);
    expect(await visitors(widget)).to.equal(admitted.length);

    // A real visitor from elsewhere: asked for the challenge, solves it as the widget does, gets in.
    const first = await from('198.51.100.20', widget);
    expectLimited(first);
    const token = challengeOf(first)!;
    expect(token.split('.')[1]).to.equal(String(CHALLENGE_DIFFICULTY));
    const counter = await solveChallenge(token);
    const real = await from('198.51.100.20', widget, { challenge: { token, counter } });
    expect(real.status, JSON.stringify(real.body)).to.equal(201);
    expect(real.body.data.visitor.token).to.match(/^[A-Za-z0-9_-]{43}$/);

    // Visitors with a token are never asked: their messages go on during the burst.
    const known = admitted[0]!.body.data.visitor.token as string;
    const later = await from('10.0.7.1', widget, {}, known);
    expect(later.status, JSON.stringify(later.body)).to.equal(201);
    expect(later.body.data.visitor).to.deep.equal({ id: admitted[0]!.body.data.visitor.id });
    expect((await from('198.51.100.20', widget, {}, real.body.data.visitor.token)).status).to.equal(201);

    // The burst is this channel's: another widget of the workspace takes first contacts as usual.
    expect((await from('198.51.100.21', await newWidget())).status).to.equal(201);
  });

  it('holds one source to its free bound while other sources go on: an address, and the /64 its IPv6 neighbours share', async () => {
    const widget = await newWidget();
    const { ip, range } = WIDGET_LIMITS.firstContact;
    for (let i = 0; i < ip.limit; i++) expect((await from('192.0.2.10', widget)).status).to.equal(201);
    const limited = await from('192.0.2.10', widget);
    expectLimited(limited);
    expect(challengeOf(limited), 'asked for the challenge').to.be.a('string');
    expect((await from('192.0.2.10', widget, { challenge: { token: issueChallenge(api.config, widget.id), counter: '0' } })).status, 'a wrong solution').to.equal(429);
    expect((await from('192.0.3.10', widget)).status, 'another network').to.equal(201);

    // Addresses of one /64 share its free bound; the next /64 does not.
    await realLimiter.reset();
    let admitted = 0;
    for (let i = 0; i < range.limit / ip.limit; i++) {
      for (let n = 0; n < ip.limit; n++) if ((await from(`2001:db8:a:b:${i}::${n + 1}`, widget)).status === 201) admitted++;
    }
    expect(admitted).to.equal(range.limit);
    const neighbour = await from('2001:db8:a:b:ffff:ffff:ffff:1', widget);
    expectLimited(neighbour);
    expect(challengeOf(neighbour)).to.be.a('string');
    expect((await from('2001:db8:a:c::1', widget)).status).to.equal(201);
  });

  it('limits decay in minutes: a source after 10, the channel’s burst after 5 (injected clock)', async () => {
    let now = Date.now();
    api.deps.rateLimiter = createMemoryRateLimiter(() => now);
    const widget = await newWidget();
    const { ip, channelFree } = WIDGET_LIMITS.firstContact;
    for (let i = 0; i < ip.limit; i++) expect((await from('192.0.2.50', widget)).status).to.equal(201);
    const limited = await from('192.0.2.50', widget);
    expectLimited(limited);
    expect(retryAfter(limited)).to.equal(ip.windowMs / 1000);
    now += ip.windowMs - 2000;
    expect((await from('192.0.2.50', widget)).status, 'not yet').to.equal(429);
    now += 2001;
    expect((await from('192.0.2.50', widget)).status, 'the window slid by').to.equal(201);

    // A channel under a burst is back to no challenge once its window slides by.
    for (let i = 0; i < channelFree.limit; i++) await api.deps.rateLimiter.take([channelFreeRule(widget.id)]);
    const burst = await from('198.51.100.60', widget);
    expect(challengeOf(burst)).to.be.a('string');
    expect(retryAfter(burst)).to.equal(channelFree.windowMs / 1000);
    now += channelFree.windowMs + 1;
    expect((await from('198.51.100.61', widget)).status).to.equal(201);
  });

  it('refuses a forged, foreign, wrong, expired or reused solution with a fresh challenge, creating no visitor', async () => {
    const widget = await newWidget();
    const other = await newWidget();
    const before = await visitors(widget);
    const refused = async (challenge: unknown, ip: string, text: RegExp) => {
      const res = await from(ip, widget, { challenge });
      expectLimited(res);
      expect(res.body.errors[0]).to.include({ type: 'RateLimitError', key: 'challenge' });
      expect(res.body.errors[0].descriptions[0]).to.match(text);
      expect(challengeOf(res), 'a fresh challenge to solve').to.be.a('string').and.not.equal((challenge as { token?: string }).token);
    };

    const good = issueChallenge(api.config, widget.id);
    const [nonce, bits, exp, sig] = good.split('.') as [string, string, string, string];
    // Signed by someone else, easier than asked, valid longer than given, or made for another widget.
    const forged = `${nonce}.${bits}.${exp}.${createHash('sha256').update('x').digest('base64url')}`;
    await refused({ token: forged, counter: await solve(forged) }, '198.51.100.70', /inválida/);
    const easier = `${nonce}.4.${exp}.${sig}`;
    await refused({ token: easier, counter: await solve(easier) }, '198.51.100.71', /inválida/);
    const longer = `${nonce}.${bits}.${Number(exp) + 3600}.${sig}`;
    await refused({ token: longer, counter: await solve(longer) }, '198.51.100.72', /inválida/);
    const foreign = issueChallenge(api.config, other.id);
    await refused({ token: foreign, counter: await solve(foreign) }, '198.51.100.73', /inválida/);
    // The right token with a counter that does not make the zero bits.
    const counter = await solve(good);
    const wrong = [...Array(1000).keys()].map(String).find((c) => c !== counter && !checkSolution(api.config, widget.id, good, c).ok)!;
    await refused({ token: good, counter: wrong }, '198.51.100.74', /inválida/);
    await refused({ token: 'nada.18.1.assinatura', counter: '1' }, '198.51.100.75', /inválida/);

    // Signed by the server, solved, but too late.
    const old = issueChallenge(api.config, widget.id, { now: Date.now() - 10 * MINUTE });
    await refused({ token: old, counter: await solve(old) }, '198.51.100.76', /expirou/);
    expect(await visitors(widget)).to.equal(before);

    // One solution, one first contact.
    const used = await from('198.51.100.77', widget, { challenge: { token: good, counter } });
    expect(used.status, JSON.stringify(used.body)).to.equal(201);
    await refused({ token: good, counter }, '198.51.100.78', /já foi usada/);
    expect(await visitors(widget)).to.equal(before + 1);

    // A malformed solution is a 400 on its field.
    const bad = await from('198.51.100.79', widget, { challenge: { token: good, counter: 'abc' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['challenge.counter']);
  });

  it('exposes the challenge header to the widget on other origins', async () => {
    const widget = await newWidget();
    for (let i = 0; i < WIDGET_LIMITS.firstContact.channelFree.limit; i++) await realLimiter.take([channelFreeRule(widget.id)]);
    const res = await api.request('POST', '/api/v1/widget/messages', {
      headers: { 'X-Forwarded-For': '198.51.100.90', Origin: 'https://loja.exemplo.com.br' },
      body: { content: 'Olá', type: 'text', identifier: widget.identifier },
    });
    expect(res.status).to.equal(429);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase().split(/,\s*/)).to.include.members(['retry-after', 'balcao-challenge']);
  });
});

describe('widget first contacts: source ranges and the challenge’s arithmetic', () => {
  it('groups IPv4 by /24 (mapped IPv6 too) and IPv6 by /64, however the address is written', () => {
    expect(sourceRange('203.0.113.9')).to.equal('203.0.113.0/24');
    expect(sourceRange('::ffff:203.0.113.200')).to.equal('203.0.113.0/24');
    expect(sourceRange('2001:db8:a:b::1')).to.equal('2001:db8:a:b::/64');
    expect(sourceRange('2001:0DB8:000a:000b:ffff:ffff:ffff:ffff')).to.equal('2001:db8:a:b::/64');
    expect(sourceRange('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(sourceRange('::1')).to.equal('0:0:0:0::/64');
    expect(sourceRange('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
    expect(sourceRange('64:ff9b::192.0.2.1')).to.equal('64:ff9b:0:0::/64');
    expect(sourceRange('unknown')).to.equal('unknown');
  });

  it('the widget’s SHA-256 finds counters the server accepts', async () => {
    const config = { jwtSecret: 'segredo-de-teste' };
    for (let i = 0; i < 3; i++) {
      const token = issueChallenge(config, 7, { difficulty: 12 });
      const counter = await solveChallenge(token);
      expect(checkSolution(config, 7, token, counter!)).to.deep.include({ ok: true });
    }
    expect(leadingZeroBits(Buffer.from([0, 0, 0x10, 0xff]))).to.equal(19);
    expect(leadingZeroBits(Buffer.from([0x80]))).to.equal(0);
  });
});
