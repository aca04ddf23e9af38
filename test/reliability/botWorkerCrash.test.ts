import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique } from '../helpers/factories';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from '../widget/helpers';
import { ChildWorker, workerForTestApi } from './support/childWorker';
import { act, botMessagesCount, botTexts, eventually, makeBot, path as botPath, sessionStatus } from '../bots/support';

describe('reliability: bot worker killed (-9) during a session', function () {
  this.timeout(180_000);
  let api: TestApi;
  let worker: ChildWorker;
  let widget: TestWidget;

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('bot-crash') });
    worker = workerForTestApi(api, 'balcao-bot-worker-');
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    widget = await makeWidget(api, owner);
    await makeBot(api.deps.knex, ws, {
      name: 'Cadastro',
      channels: [widget.id],
      paths: [
        botPath('Início', [
          act.message('Olá!'),
          act.input({ text: 'Seu nome?', responseType: 'text', inputProp: 'name' }),
          act.message('Obrigado, anotado.'),
          act.input({ text: 'Seu e-mail?', responseType: 'email', inputProp: 'email' }),
          act.message('Até mais.'),
        ]),
      ],
    });
    await worker.start();
  });
  after(async () => {
    await worker?.kill();
    await api?.close();
  });

  const send = (v: TestVisitor, content: string) => api.request('POST', '/api/v1/widget/messages', { token: v.token, body: { content, type: 'text', identifier: widget.identifier } });

  it('after a restart the session goes on where it was and no bot message is stored or sent twice', async () => {
    const visitor = await firstContact(api, widget, 'Oi');
    expect(await botMessagesCount(api.deps.knex, visitor.conversationId, 2)).to.deep.equal(['Olá!', 'Seu nome?']);

    // Crash while the session waits; the answer arrives while no worker runs.
    await worker.kill();
    expect((await send(visitor, 'Ana')).status).to.equal(201);
    await worker.start();
    // The task that was on the dead worker's sticky queue moves to the normal queue after its timeout.
    expect(await botMessagesCount(api.deps.knex, visitor.conversationId, 4, 60_000)).to.deep.equal(['Olá!', 'Seu nome?', 'Obrigado, anotado.', 'Seu e-mail?']);

    // Crash in the middle of a turn: the answer is signalled and the worker dies at once.
    expect((await send(visitor, 'ana@exemplo.com')).status).to.equal(201);
    await worker.kill();
    await worker.start();
    const session = await api.deps.knex('bot_sessions').where({ customerPlatformId: visitor.conversationId }).first('id');
    await eventually(async () => (await sessionStatus(api.deps.knex, session.id)) === 'finished', 'the session to finish', 60_000);

    expect(await botTexts(api.deps.knex, visitor.conversationId)).to.deep.equal(['Olá!', 'Seu nome?', 'Obrigado, anotado.', 'Seu e-mail?', 'Até mais.']);
    const rows: { idempotencyKey: string; status: number; externalId: string }[] = await api.deps.knex('messages')
      .where({ customerPlatformId: visitor.conversationId, type: 3 })
      .select('idempotency_key', 'status', 'external_id');
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).to.equal(5);
    expect(rows.every((r) => r.status === 2 && r.externalId)).to.equal(true);
    const customer = await api.deps.knex('customers as c').join('customer_platforms as cp', 'cp.customer_id', 'c.id').where('cp.id', visitor.conversationId).first('c.name', 'c.email');
    expect(customer).to.deep.equal({ name: 'Ana', email: 'ana@exemplo.com' });
  });
});
