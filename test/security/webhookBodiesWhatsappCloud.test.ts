import { expect } from 'chai';
import fc from 'fast-check';
import { CloudMessageSchema } from '../../api/channels/whatsapp/webhookSchema';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { MetaGraphFake, messagesWebhook, postWebhook, statusWebhook } from '../fakes/metaGraph';
import { makeOwner } from '../channels/helpers';
import { addCloudLine, cloudHookUrl, cloudSettled, type CloudLine } from '../channels/whatsapp/support';
import { fromZod, junkText, junkValue, withNul } from './arbitraries';

/**
 * Issue 25 item 4 (WhatsApp Cloud part): a body signed with the line's app secret but not shaped like Meta's
 * webhook answered 500 (and Meta redelivers a 5xx for days). Now the envelope is checked at the edge (400)
 * and a malformed message or status inside a good envelope is skipped (200, the rest stored). Property:
 * whatever signed body reaches either hook (the line's, the app-level one), the answer is never a 500 and
 * errors keep the error shape of DESIGN.md §3.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25) * 6;

function assertShape(res: { status: number; body: unknown }, label: string): void {
  expect(res.status, `${label} → ${JSON.stringify(res.body)?.slice(0, 300)}`).to.be.below(500);
  if (res.status < 400) return;
  const body = res.body as ApiResponse['body'];
  expect(body, label).to.be.an('object').with.property('errors').that.is.an('array').with.length.greaterThan(0);
  expect(body.errors[0].type, label).to.be.a('string');
}

/** Every place in a JSON value (object fields and array items), in document order. */
function valuePaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...path, i], ...valuePaths(v, [...path, i])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [[...path, k], ...valuePaths(v, [...path, k])]);
  return [];
}

/** `valid` with the value at one place (anywhere in the tree) replaced by junk, or removed. */
function deepMutated(valid: unknown): fc.Arbitrary<unknown> {
  const paths = valuePaths(valid);
  return fc.tuple(fc.nat(), fc.oneof({ weight: 4, arbitrary: junkValue.map((v) => ({ set: v })) }, fc.constant({ remove: true }))).map(([pick, change]) => {
    const copy = structuredClone(valid) as Record<string | number, unknown>;
    const path = paths[pick % paths.length];
    let parent = copy;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    if ('remove' in change) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else parent[last] = change.set;
    return copy;
  });
}

describe('security: signed WhatsApp Cloud webhook bodies of any shape never answer 500', function () {
  this.timeout(300_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let line: CloudLine;
  const appSecret = 'segredo-fuzz-whatsapp';
  const customer = { waId: '5511987654321', name: 'Maria' };

  before(async () => {
    await graph.start();
    api = await startTestApi({ metaGraphUrl: graph.url });
    const { owner } = await makeOwner(api);
    ({ line } = await addCloudLine(api, graph, owner, { appSecret }));
  });
  after(async () => {
    await api?.close();
    await graph.stop();
  });

  const lineHook = () => cloudHookUrl(api, line);
  const appHook = () => `${api.url}/api/hooks/whatsapp`;
  const storedTexts = async () => (await api.deps.knex('messages').where({ channelId: line.id }).orderBy('id').select('text')).map((m: { text: string }) => m.text);

  it('answers 400 to the malformed envelopes issue 25 listed (null, entry not a list, a null entry, messages not a list), storing nothing', async () => {
    const good = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'nunca gravada' } }]);
    const messagesNotAList = structuredClone(good) as { entry: { changes: { value: Record<string, unknown> }[] }[] };
    messagesNotAList.entry[0].changes[0].value.messages = {};
    const cases: [string, unknown][] = [
      ['null', null],
      ['{"entry":{}}', { entry: {} }],
      ['{"entry":[null]}', { entry: [null] }],
      ['"messages":{}', messagesNotAList],
      ['a number', 42],
      ['entry missing', { object: 'whatsapp_business_account' }],
    ];
    for (const [label, body] of cases) {
      const res = await postWebhook(lineHook(), body, appSecret);
      expect(res.status, `${label} → ${JSON.stringify(res.body)}`).to.equal(400);
      assertShape(res, label);
    }
    // On the app-level hook a body must name the line to be verified at all; then its shape is checked.
    const named = { ...messagesNotAList, entry: [{ ...messagesNotAList.entry[0] }] };
    expect((await postWebhook(appHook(), named, appSecret)).status).to.equal(400);
    expect((await postWebhook(appHook(), null, appSecret)).status).to.equal(401);
    expect(await storedTexts()).to.deep.equal([]);
  });

  it('skips a malformed message (text.body an object) or status and stores the rest of the body, answering 200 so Meta does not redeliver it forever', async () => {
    const body = messagesWebhook(line, customer, [
      { type: 'text', text: { body: { conteudo: 'objeto' } } },
      { type: 'text', text: { body: 'esta chega' } },
      { type: 'reaction', reaction: { emoji: '👍' } },
    ]);
    for (const hook of [lineHook(), appHook()]) {
      const res = await postWebhook(hook, body, appSecret);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    // Answered once stored; processed right after (docs/channels/whatsapp.md).
    await cloudSettled(api);
    expect(await storedTexts()).to.deep.equal(['esta chega']);
    const statuses = statusWebhook(line, customer.waId, [{ id: 'wamid.x', status: 'read', errors: 'não é lista' } as never, { id: 42, status: 'read' } as never]);
    expect((await postWebhook(lineHook(), statuses, appSecret)).status).to.equal(200);
  });

  it('never answers 500 to signed bodies of random shapes on the line hook and the app-level hook', async () => {
    const valid = messagesWebhook(line, customer, [
      { type: 'text', text: { body: 'olá' }, context: { from: '5511912345678', id: 'wamid.ctx' } },
      { type: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'Loja', address: 'Rua A' } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana' }, phones: [{ phone: '+5511977776666', wa_id: '5511977776666' }] }] },
      { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'a', title: 'A', description: 'd' } } },
      { type: 'reaction', reaction: { message_id: 'wamid.qualquer', emoji: '👍' } },
      { type: 'image', image: { id: '123456', mime_type: 'image/jpeg' } },
    ]);
    const statuses = statusWebhook(line, customer.waId, [{ id: 'wamid.s', status: 'failed', errors: [{ code: 131026, title: 'x', error_data: { details: 'y' } }] }]);
    // Messages shaped like the schema's input (every kind, odd strings), placed in a good envelope.
    const schemaShaped = fc.array(fromZod(CloudMessageSchema), { minLength: 1, maxLength: 3 }).map((messages) => {
      const copy = structuredClone(valid) as { entry: { changes: { value: Record<string, unknown> }[] }[] };
      copy.entry[0].changes[0].value.messages = messages;
      return copy;
    });
    type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; value: string };
    const json = (a: fc.Arbitrary<unknown>) => a.map((value): Body => ({ kind: 'json', value }));
    const body: fc.Arbitrary<Body> = fc.oneof(
      { weight: 6, arbitrary: json(deepMutated(valid)) },
      { weight: 2, arbitrary: json(deepMutated(statuses)) },
      { weight: 3, arbitrary: json(schemaShaped) },
      { weight: 2, arbitrary: json(withNul(fc.constant(valid))) },
      { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
      { weight: 1, arbitrary: fc.oneof(junkText, fc.constantFrom('{', '[', 'null', '{"entry":', '"x"')).map((value): Body => ({ kind: 'raw', value })) },
    );
    const { signBody } = await import('../fakes/metaGraph');
    const failures: string[] = [];
    for (const hook of [lineHook(), appHook()]) {
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          const raw = input.kind === 'raw' ? input.value : (JSON.stringify(input.value) ?? 'null');
          const res = await fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, appSecret) }, body: raw });
          const text = await res.text();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          const label = `${hook === appHook() ? 'app hook' : 'line hook'} ${raw.slice(0, 300)}`;
          if (res.status >= 500) failures.push(`${label} → ${res.status} ${text.slice(0, 200)}`);
          assertShape({ status: res.status, body: parsed }, label);
        }),
        { numRuns: RUNS },
      );
    }
    expect(failures).to.deep.equal([]);
    // The bodies are processed after the answer: none of what was stored failed there either.
    await cloudSettled(api);
    const failed = await api.deps.knex('hook_events').where({ source: 'whatsapp' }).whereRaw("payload -> 'channelIds' @> ?::jsonb", [JSON.stringify([line.id])]).whereNotNull('last_error').select('last_error');
    expect(failed.map((f: { lastError: string }) => f.lastError)).to.deep.equal([]);
  });
});
