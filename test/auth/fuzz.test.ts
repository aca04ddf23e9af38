import { expect } from 'chai';
import fc from 'fast-check';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

/**
 * Property: whatever a client sends to the account endpoints (and to a generic resource, /api/label), the
 * answer is never a 500, and every answer of 400 or more has the error shape of DESIGN.md §3.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

interface Target {
  method: string;
  path: (ctx: { agentId: number; labelId: number }) => string;
  auth?: boolean;
  query?: boolean;
  /** A plausible body: the keys are the schema's, so shaped junk reaches the field validators. */
  example: Record<string, unknown>;
}

const token = 'A'.repeat(43);
const TARGETS: Target[] = [
  { method: 'POST', path: () => '/api/signup', example: { name: 'Ana', workspace: 'Loja', email: 'ana@exemplo.com', password: '123456', acceptTerms: true } },
  { method: 'POST', path: () => '/api/operators/login', example: { email: 'ana@exemplo.com', password: '123456' } },
  { method: 'POST', path: () => '/api/operators/forgot-password', example: { email: 'ana@exemplo.com' } },
  { method: 'PUT', path: () => '/api/operators/reset-password', example: { newPassword: '12345', confirmNewPassword: '12345', token, email: 'ana@exemplo.com' } },
  { method: 'POST', path: () => '/api/operators/confirm-email', example: { token } },
  { method: 'POST', path: () => '/api/operators/renew-token', example: { renewalToken: token, workspaceId: 1 } },
  { method: 'POST', path: () => '/api/operators/change-password', auth: true, example: { password: '123456', newPassword: '1234567', confirmNewPassword: '1234567' } },
  { method: 'PUT', path: () => '/api/session', auth: true, example: { name: 'Ana', phone: '+55 11 9999', avatar: 'a.png' } },
  { method: 'PUT', path: () => '/api/operators/profile', auth: true, example: { name: 'Ana', phone: '+55 11 9999', avatar: 'a.png', email: 'ana@exemplo.com' } },
  { method: 'POST', path: () => '/api/operators/complete-register', example: { name: 'Ana', email: 'ana@exemplo.com', password: '123456', token } },
  { method: 'POST', path: () => '/api/operators/join-workspace', example: { operatorId: 1, workspaceId: 1, token } },
  { method: 'GET', path: () => '/api/operators/join-workspace', query: true, example: { operatorId: '1', workspaceId: '1', token } },
  { method: 'POST', path: () => '/api/operator', auth: true, example: { name: 'Ana', email: 'ana@exemplo.com', accessLevel: 3, groups: [1] } },
  { method: 'PUT', path: ({ agentId }) => `/api/operator/${agentId}`, auth: true, example: { accessLevel: 2, isActive: true } },
  { method: 'POST', path: () => '/api/workspace', auth: true, example: { name: 'Filial' } },
  { method: 'PUT', path: () => '/api/workspace', auth: true, example: { workspace: 'Filial', avatar: null, timeZone: 'America/Recife', workspaceId: 1 } },
  { method: 'GET', path: () => '/api/workspace', auth: true, query: true, example: { x: '1' } },
  { method: 'POST', path: () => '/api/label', auth: true, example: { name: 'Vip', color: '#D1FADF', textColor: '#027A48' } },
  { method: 'PUT', path: ({ labelId }) => `/api/label/${labelId}`, auth: true, example: { name: 'Vip', color: '#D1FADF', textColor: '#027A48' } },
  { method: 'GET', path: () => '/api/label', auth: true, query: true, example: { limit: '10', offset: '0', query: 'v', sort: '["name","ASC"]', range: '[0,9]', filter: '{}' } },
];

/** Text that stresses parsers and the database: control characters, NUL, lone surrogates, huge numbers. */
const nastyConstant = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  'nome\u0000',
  '\ud800',
  "'; drop table operators; --",
  '%00',
  '../../etc/passwd',
  '1e309',
  '-0',
  '9'.repeat(40),
  '<script>x</script>',
  ' ',
);
const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  { weight: 3, arbitrary: nastyConstant },
  fc.string({ maxLength: 20 }).map((s) => s.repeat(300)),
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyText },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.oneof(fc.integer(), nastyText), { maxLength: 5 }),
);

/** The plausible body with one field replaced by nasty text: reaches the database far more often. */
function oneFieldNasty(example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.constantFrom(...Object.keys(example)), nastyConstant).map(([k, v]) => ({ ...example, [k]: v }));
}

function shaped(example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, fc.oneof(fc.constant(v), junkValue)]));
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 10 }), junkValue, { maxKeys: 2 }))
    .map(([body, extra]) => ({ ...extra, ...body }));
}

type Input = { kind: 'json'; value: unknown } | { kind: 'raw'; value: string };

function inputs(t: Target): fc.Arbitrary<Input> {
  return fc.oneof(
    shaped(t.example).map((value): Input => ({ kind: 'json', value })),
    { weight: 2, arbitrary: oneFieldNasty(t.example).map((value): Input => ({ kind: 'json', value })) },
    fc.jsonValue({ maxDepth: 3 }).map((value): Input => ({ kind: 'json', value })),
    fc.oneof(nastyText, fc.constantFrom('{', '{"a":', '[', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}')).map((value): Input => ({ kind: 'raw', value })),
  );
}

function assertShape(res: ApiResponse, label: string): void {
  expect(res.status, `${label} → ${JSON.stringify(res.body)}`).to.not.equal(500);
  if (res.status < 400) return;
  expect(res.body, label).to.be.an('object').with.property('errors').that.is.an('array').with.length.greaterThan(0);
  for (const e of res.body.errors) {
    expect(e.type, label).to.be.a('string');
    expect(e.title, label).to.be.a('string');
    expect(e.descriptions, label).to.be.an('array').with.length.greaterThan(0);
    for (const d of e.descriptions) expect(d, label).to.be.a('string');
  }
}

describe('property: account endpoints and /api/label never fail with a 500 on junk', function () {
  this.timeout(300_000);
  let api: TestApi;
  let owner: TestOperator;
  let agentId: number;
  let labelId: number;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agentId = (await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3)).id;
    const label = await api.request('POST', '/api/label', { token: owner.token, body: { name: 'Base', color: '#D1FADF', textColor: '#027A48' } });
    labelId = label.body.data.id;
  });
  after(() => api.close());

  for (const t of TARGETS) {
    const path = () => t.path({ agentId, labelId });
    it(`${t.method} ${t.path({ agentId: 0, labelId: 0 })}`, async () => {
      await fc.assert(
        fc.asyncProperty(inputs(t), async (input) => {
          // Without this the limiter would answer 429 to almost everything and hide the handlers.
          await api.deps.rateLimiter.reset();
          // Password changes and level changes end sessions: keep the owner's token valid between runs.
          await api.deps.knex('operators').where({ id: owner.id }).update({ tokenVersion: 0 });
          await api.deps.knex('workspace_members').where({ operatorId: owner.id }).update({ tokenVersion: 0, isActive: true, accessLevel: 10 });
          const auth = t.auth ? { token: owner.token } : {};
          let res: ApiResponse;
          if (t.query) {
            const value = input.kind === 'json' && input.value && typeof input.value === 'object' && !Array.isArray(input.value) ? input.value : { q: input.value };
            const qs = new URLSearchParams(Object.entries(value as object).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? '']));
            res = await api.request(t.method, `${path()}?${qs}`, auth);
          } else if (input.kind === 'raw') {
            res = await api.request(t.method, path(), { ...auth, rawBody: input.value });
          } else {
            res = await api.request(t.method, path(), { ...auth, rawBody: JSON.stringify(input.value) ?? '' });
          }
          assertShape(res, `${t.method} ${path()} ${JSON.stringify(input).slice(0, 300)}`);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
