import { expect } from 'chai';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { expectError, signUp, type SignedUp } from '../auth/helpers';
import { WORKSPACE_CREATION_LIMIT } from '../../api/workspaces/creationLimit';

const DAY_S = 24 * 3600;

describe('workspace creation: at most 10 per account in any 24 hours, counted in PostgreSQL', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  const create = (s: SignedUp, name: string) => api.request('POST', '/api/workspace', { token: s.token, body: { name } });
  const owned = async (s: SignedUp) =>
    Number((await api.deps.knex('workspaceMembers').where({ operatorId: s.operatorId, accessLevel: 10 }).count({ n: '*' }).first())?.n);

  function expectLimited(res: ApiResponse, maxSeconds = DAY_S) {
    expectError(res, 429, 'RateLimitError');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, maxSeconds);
    expect(res.body.errors[0].descriptions).to.deep.equal([
      `Você já criou 10 workspaces nas últimas 24 horas. Tente novamente em ${Math.ceil(retryAfter / 3600)} horas.`.replace(/em 1 horas/, 'em 1 hora'),
    ]);
    return retryAfter;
  }

  it('15 in a row: the signup’s workspace and 9 more are created, the rest refused with 429 and a Retry-After of about a day; another account is not affected', async () => {
    expect(WORKSPACE_CREATION_LIMIT).to.deep.equal({ limit: 10, windowHours: 24 });
    const s = await signUp(api);
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 15; i++) answers.push(await create(s, `Filial ${i + 1}`));
    expect(answers.map((r) => r.status)).to.deep.equal([...Array<number>(9).fill(201), ...Array<number>(6).fill(429)]);
    for (const r of answers.slice(9)) expect(expectLimited(r)).to.be.above(DAY_S - 120);
    expect(await owned(s)).to.equal(10);

    const other = await signUp(api);
    expect((await create(other, 'Outra empresa')).status).to.equal(201);
  });

  it('the window slides: once the oldest workspace is more than 24 hours old, one more may be created', async () => {
    const s = await signUp(api);
    for (let i = 0; i < 9; i++) expect((await create(s, `Loja ${i + 1}`)).status).to.equal(201);
    expectLimited(await create(s, 'Cedo demais'));

    // The signup's workspace was opened 24 h and 1 min ago; the next oldest 23 h ago.
    const ids = (await api.deps.knex('workspaceMembers as m').join('workspaces as w', 'w.id', 'm.workspaceId').where('m.operatorId', s.operatorId).orderBy('w.id').pluck('w.id')) as number[];
    await api.deps.knex('workspaces').where({ id: ids[0] }).update({ createdAt: api.deps.knex.raw("now() - interval '24 hours 1 minute'") });
    await api.deps.knex('workspaces').where({ id: ids[1] }).update({ createdAt: api.deps.knex.raw("now() - interval '23 hours'") });
    expect((await create(s, 'Agora sim')).status).to.equal(201);
    const again = await create(s, 'De novo');
    const retryAfter = expectLimited(again);
    expect(retryAfter).to.be.within(3600 - 120, 3600);
    expect(again.body.errors[0].descriptions[0]).to.match(/Tente novamente em 1 hora\.$/);
  });

  it('parallel requests cannot take the last places twice: with 2 places left, 6 at once create exactly 2', async () => {
    const s = await signUp(api);
    for (let i = 0; i < 7; i++) expect((await create(s, `Base ${i + 1}`)).status).to.equal(201);
    const answers = await Promise.all([...Array(6).keys()].map((i) => create(s, `Paralela ${i + 1}`)));
    expect(answers.filter((r) => r.status === 201)).to.have.length(2);
    for (const r of answers.filter((a) => a.status !== 201)) expectLimited(r);
    expect(await owned(s)).to.equal(10);
  });
});
