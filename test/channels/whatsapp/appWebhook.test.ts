import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import type { TestOperator } from '../../helpers/factories';
import { MetaGraphFake, messagesWebhook } from '../../fakes/metaGraph';
import { makeOwner, type WorkerSetup } from '../helpers';
import { addCloudLine, cloudHookUrl, postCloudWebhook, startCloudApi, stopCloudApi, type CloudLine } from './support';

/**
 * One webhook per Meta app (docs/channels/whatsapp.md "One webhook per Meta app"): Meta posts every line of
 * an app (or of a WhatsApp Business account with an override) to one callback URL, batching entries of
 * several phone numbers in one body. The app-level hook hands each entry to the line of its
 * `phone_number_id`, trusting only lines whose app secret verifies the signature.
 */
describe('WhatsApp Cloud app-level webhook: one URL for every line of a Meta app, each entry to the line of its phone_number_id', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let owner: TestOperator;
  let otherOwner: TestOperator;
  const appSecret = 'segredo-do-app-unico';
  const maria = { waId: '5511987654321', name: 'Maria' };
  const joao = { waId: '5521976543210', name: 'João' };

  before(async () => ({ api, worker } = await startCloudApi(graph, 'wa-cloud-app')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ owner } = await makeOwner(api));
    ({ owner: otherOwner } = await makeOwner(api));
  });

  const appHook = () => `${api.url}/api/hooks/whatsapp`;
  const texts = async (line: CloudLine) => (await api.deps.knex('messages').where({ channelId: line.id }).orderBy('id').select('text')).map((m: { text: string }) => m.text);
  /** One body with an entry per line, as Meta batches them. */
  const batch = (...parts: [CloudLine, { waId: string; name: string }, string][]) => {
    const bodies = parts.map(([line, from, text]) => messagesWebhook(line, from, [{ type: 'text', text: { body: text } }]));
    return { object: 'whatsapp_business_account', entry: bodies.flatMap((b) => b.entry) };
  };

  it('dispatches a batched body to each line of the app (two workspaces), and every line shows the app-level URL', async () => {
    const { line: a } = await addCloudLine(api, graph, owner, { appSecret });
    const { line: b } = await addCloudLine(api, graph, otherOwner, { appSecret });
    expect(a.appWebhookUrl).to.equal(`${api.config.publicUrl}/api/hooks/whatsapp`);
    expect(b.appWebhookUrl).to.equal(a.appWebhookUrl);
    const res = await postCloudWebhook(api, appHook(), batch([a, maria, 'Oi, linha A'], [b, joao, 'Oi, linha B']), appSecret);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await texts(a)).to.deep.equal(['Oi, linha A']);
    expect(await texts(b)).to.deep.equal(['Oi, linha B']);
  });

  it('trusts only lines whose app secret verifies the body: an entry of a line of another app is dropped, a body no candidate verifies is 401', async () => {
    const { line: a } = await addCloudLine(api, graph, owner, { appSecret });
    const { line: other } = await addCloudLine(api, graph, otherOwner, { appSecret: 'segredo-de-outro-app' });
    // Signed with A's app secret, naming the other app's line too: only A's entry is taken.
    expect((await postCloudWebhook(api, appHook(), batch([a, maria, 'Para A'], [other, joao, 'Forjada para B']), appSecret)).status).to.equal(200);
    expect(await texts(a)).to.deep.equal(['Para A']);
    expect(await texts(other)).to.deep.equal([]);
    // Naming only the other app's line, signed with A's secret (or not signed, or naming no line): 401.
    expect((await postCloudWebhook(api, appHook(), batch([other, joao, 'Forjada']), appSecret)).status).to.equal(401);
    expect((await postCloudWebhook(api, appHook(), batch([a, maria, 'Sem assinatura']), null)).status).to.equal(401);
    expect((await postCloudWebhook(api, appHook(), batch([{ ...a, phoneNumberId: '999999999999999' }, maria, 'Linha desconhecida']), appSecret)).status).to.equal(401);
    expect(await texts(other)).to.deep.equal([]);
    expect(await texts(a)).to.deep.equal(['Para A']);
  });

  it("the line's own webhook URL keeps working and no longer drops the entries of the app's other lines", async () => {
    const { line: a } = await addCloudLine(api, graph, owner, { appSecret });
    const { line: b } = await addCloudLine(api, graph, owner, { appSecret });
    const { line: foreign } = await addCloudLine(api, graph, otherOwner, { appSecret: 'segredo-de-outro-app' });
    const res = await postCloudWebhook(api, cloudHookUrl(api, a), batch([a, maria, 'Pela URL de A'], [b, joao, 'Para B pela URL de A'], [foreign, joao, 'Forjada']), appSecret);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await texts(a)).to.deep.equal(['Pela URL de A']);
    expect(await texts(b)).to.deep.equal(['Para B pela URL de A']);
    expect(await texts(foreign)).to.deep.equal([]);
  });

  it('a line whose secrets cannot be opened (sealed with another CHANNEL_SECRETS_KEY) does not keep the others from receiving', async () => {
    const { line: a } = await addCloudLine(api, graph, owner, { appSecret });
    const { line: broken } = await addCloudLine(api, graph, otherOwner, { appSecret });
    await api.deps.knex.raw(`update channels set config = jsonb_set(config::jsonb, '{appSecretSealed}', '"v1.AAAA.AAAA.AAAA"') where id = ?`, [broken.id]);
    const res = await postCloudWebhook(api, appHook(), batch([a, maria, 'Chegou em A'], [broken, joao, 'Para a linha quebrada']), appSecret);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await texts(a)).to.deep.equal(['Chegou em A']);
    expect(await texts(broken)).to.deep.equal([]);
  });

  it("answers Meta's verification handshake for the verify token of any Cloud line, 403 otherwise", async () => {
    const { line } = await addCloudLine(api, graph, owner, { appSecret });
    const ask = (token: string) => api.request('GET', `/api/hooks/whatsapp?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': 'desafio-1158201444' })}`);
    const ok = await ask(line.verifyToken);
    expect(ok.status).to.equal(200);
    expect(ok.body).to.equal('desafio-1158201444');
    expect((await ask('token-errado-com-tamanho-suficiente')).status).to.equal(403);
  });
});
