import { expect } from 'chai';
import type nodemailer from 'nodemailer';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { createMailChannel, mailSuiteHooks } from '../channels/email/support';
import { messageRow, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../channels/helpers';
import { NO_CONTACT_EMAIL, NOT_AN_EMAIL_CHANNEL } from '../../api/contacts/startEmailConversation';
import { makeChannel, makeCustomer } from './rows';

describe('Contacts page: POST /customer/:id/email-conversation starts a mail thread with the contact', function () {
  this.timeout(90_000);
  let api: TestApi;
  let worker: WorkerSetup;
  let client: nodemailer.Transporter;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  mailSuiteHooks('contacts-email', (s) => ({ api, client, worker } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
  });

  it("sends the first mail with the subject as written, and the customer's answer joins the same conversation", async () => {
    const channel = await createMailChannel(api, owner);
    const address = `${unique('rita')}@cliente.example`;
    const customer = await makeCustomer(api.deps.knex, ws.id, { name: 'Rita Mail', email: address });
    const before = api.mailbox.mails.length;
    let conversationId = 0;
    await withChannelWorker(
      api,
      worker,
      async () => {
        const res = await api.request('POST', `/api/customer/${customer.id}/email-conversation`, { token: owner.token, body: { workspacePlatformId: channel.id, subject: 'Seu pedido 123', content: 'Olá, Rita! Seu pedido saiu.' } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        conversationId = res.body.data.id;
        const [first] = await api.deps.knex('messages').where({ customerPlatformId: conversationId }).select('id');
        await untilDeliveryState(api, first.id, 'sent');
      },
      { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 4 } },
    );
    const cp = await api.deps.knex('customer_platforms').where({ id: conversationId }).first();
    expect(cp).to.include({ customerId: customer.id, channelId: channel.id, operatorId: owner.id });
    const mail = await api.mailbox.waitFor(address, (m) => api.mailbox.mails.indexOf(m) >= before && m.raw.includes('Seu pedido saiu'));
    expect(mail.subject).to.equal('Seu pedido 123');
    const sent = await messageRow(api, (await api.deps.knex('messages').where({ customerPlatformId: conversationId }).first('id')).id);

    await client.sendMail({ from: address, to: channel.identifier, subject: 'Re: Seu pedido 123', text: 'Obrigada!', messageId: `<${unique('r')}@cliente.example>`, inReplyTo: sent.externalId, references: [sent.externalId] });
    const answer = await api.deps.knex('messages').where({ channelId: channel.id, text: 'Obrigada!' }).first('customer_platform_id');
    expect(answer.customerPlatformId).to.equal(conversationId);
  });

  it('refuses a contact without e-mail, a channel that is not e-mail, and a contact the agent cannot reach', async () => {
    const mailChannel = await createMailChannel(api, owner);
    const widget = await makeChannel(api.deps.knex, ws.id, 'widget');
    const noMail = await makeCustomer(api.deps.knex, ws.id, { name: 'Sem Email' });
    const withMail = await makeCustomer(api.deps.knex, ws.id, { email: 'x@cliente.example' });
    const body = { workspacePlatformId: mailChannel.id, subject: 'Oi', content: 'Oi' };
    let res = await api.request('POST', `/api/customer/${noMail.id}/email-conversation`, { token: owner.token, body });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'email', descriptions: [NO_CONTACT_EMAIL] });
    res = await api.request('POST', `/api/customer/${withMail.id}/email-conversation`, { token: owner.token, body: { ...body, workspacePlatformId: widget.id } });
    expect(res.body.errors[0]).to.deep.include({ key: 'workspacePlatformId', descriptions: [NOT_AN_EMAIL_CHANNEL] });
    // No conversation yet: below level 6 the contact is not reachable.
    res = await api.request('POST', `/api/customer/${withMail.id}/email-conversation`, { token: agent.token, body });
    expect(res.status).to.equal(404);
    const other = await makeWorkspace(api.deps.knex);
    const stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    res = await api.request('POST', `/api/customer/${withMail.id}/email-conversation`, { token: stranger.token, body });
    expect(res.status).to.equal(404);
    expect(await api.deps.knex('customer_platforms').where({ customerId: withMail.id })).to.have.length(0);
  });
});
