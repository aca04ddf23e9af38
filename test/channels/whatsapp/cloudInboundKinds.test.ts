import { expect } from 'chai';
import mqtt from 'mqtt';
import type { TestApi } from '../../helpers/api';
import type { TestOperator, TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { MetaGraphFake } from '../../fakes/metaGraph';
import { makeOwner, postAgentMessage, until, type WorkerSetup } from '../helpers';
import { addCloudLine, deliverCloudMessages, startCloudApi, stopCloudApi, type CloudLine } from './support';

/**
 * The Cloud API inbound kinds beyond text and media (Meta's "messages" webhook reference: reaction, button,
 * interactive button_reply / list_reply, contacts, location), stored so the inbox can show them
 * (docs/channels/whatsapp.md "Webhook"): none of them is a "não suportada" note.
 */
describe('WhatsApp Cloud inbound kinds: reactions on the message they react to, button and list replies, contacts, location', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: CloudLine;
  const appSecret = 'segredo-tipos';
  const customer = { waId: '5511912345678', name: 'Clara Cliente' };

  before(async () => ({ api, worker } = await startCloudApi(graph, 'wa-cloud-kinds')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ line } = await addCloudLine(api, graph, owner, { appSecret }));
  });

  const deliver = async (messages: Record<string, unknown>[]) => {
    const res = await deliverCloudMessages(api, line, appSecret, customer, messages);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const rows = () => api.deps.knex('messages').where({ channelId: line.id }).orderBy('id');
  const lastCustomerMessage = async () => (await rows()).filter((m) => m.sender === 'customer').pop();

  /** The conversation's messages as the inbox reads them (GET /api/inbox/messages). */
  async function listed(conversationId: number) {
    const res = await api.request('GET', `/api/inbox/messages?id=${conversationId}`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as { id: number; text: string; Call: { extraData: Record<string, unknown> } | null }[];
  }

  /** The customer wrote; the agent answered with a message WhatsApp knows as `wamid` (the delivery path set it). */
  async function agentMessageWithWamid(wamid: string): Promise<{ conversationId: number; agentMessageId: number }> {
    await deliver([{ type: 'text', text: { body: 'Oi, tem o modelo azul?' } }]);
    const conversationId = (await lastCustomerMessage()).customerPlatformId as number;
    const agentMessageId = await postAgentMessage(api, owner, { id: conversationId, content: delta('Temos sim!') });
    await api.deps.knex('messages').where({ id: agentMessageId }).update({ externalId: wamid, deliveryState: 'sent' });
    return { conversationId, agentMessageId };
  }

  it('a reaction is shown on the message it reacts to (no message of its own), published live, and an emoji-less reaction removes it', async () => {
    const wamid = `wamid.agente-${Date.now()}`;
    const { conversationId, agentMessageId } = await agentMessageWithWamid(wamid);
    const before = (await rows()).length;

    // The owner's realtime topic (DESIGN.md §6) receives the reaction as chat.messageStatus.
    const events: { event: string; data: Record<string, unknown> }[] = [];
    const client = await mqtt.connectAsync(`${api.url.replace(/^http/, 'ws')}/mqtt`, { username: String(owner.id), password: owner.token, reconnectPeriod: 0, connectTimeout: 3000 });
    await client.subscribeAsync(`ws/${ws.id}/op/${owner.id}`, { qos: 1 });
    client.on('message', (_t, payload) => events.push(JSON.parse(payload.toString())));
    try {
      await deliver([{ type: 'reaction', reaction: { message_id: wamid, emoji: '👍' } }]);
      expect((await rows()).length, 'a reaction is not a message').to.equal(before);
      const shown = (await listed(conversationId)).find((m) => m.id === agentMessageId)!;
      expect(shown.Call?.extraData.reaction).to.deep.include({ emoji: '👍' });
      await until(async () => events.some((e) => e.event === 'chat.messageStatus' && e.data.messageId === agentMessageId));
      const live = events.find((e) => e.event === 'chat.messageStatus' && e.data.messageId === agentMessageId)!;
      expect(live.data.reaction).to.deep.include({ emoji: '👍' });

      // Meta omits `emoji` when the customer removes the reaction.
      await deliver([{ type: 'reaction', reaction: { message_id: wamid } }]);
      const removed = (await listed(conversationId)).find((m) => m.id === agentMessageId)!;
      expect(removed.Call?.extraData.reaction).to.deep.include({ emoji: null });
    } finally {
      client.end(true);
    }
  });

  it("a reaction to a message of another customer's conversation changes nothing", async () => {
    const wamid = `wamid.alheia-${Date.now()}`;
    const { agentMessageId } = await agentMessageWithWamid(wamid);
    const stranger = { waId: '5521998765432', name: 'Outro' };
    expect((await deliverCloudMessages(api, line, appSecret, stranger, [{ type: 'reaction', reaction: { message_id: wamid, emoji: '😡' } }])).status).to.equal(200);
    const row = await api.deps.knex('messages').where({ id: agentMessageId }).first();
    expect(row.extraData ?? {}).to.not.have.property('reaction');
  });

  it("a template's quick-reply button arrives as the customer's text with its payload, and 'SAIR' opts the number out of campaigns", async () => {
    await deliver([{ type: 'button', context: { from: '5511912345678', id: 'wamid.modelo' }, button: { payload: 'optout-campanha', text: 'SAIR' } }]);
    const m = await lastCustomerMessage();
    expect(m.text).to.equal('SAIR');
    expect(m.extraData.buttonReply).to.deep.equal({ kind: 'button', id: 'optout-campanha', title: 'SAIR' });
    expect(await api.deps.knex('campaign_opt_outs').where({ workspaceId: ws.id }).select('phone', 'word')).to.deep.equal([{ phone: customer.waId, word: 'SAIR' }]);
  });

  it('interactive replies (reply button, list row) arrive as the chosen title with its id', async () => {
    await deliver([{ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'confirmar-pedido', title: 'Confirmar' } } }]);
    let m = await lastCustomerMessage();
    expect(m.text).to.equal('Confirmar');
    expect(m.extraData.buttonReply).to.deep.equal({ kind: 'button_reply', id: 'confirmar-pedido', title: 'Confirmar', description: null });
    await deliver([{ type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'entrega-sp', title: 'Entrega em SP', description: 'Até 2 dias úteis' } } }]);
    m = await lastCustomerMessage();
    expect(m.text).to.equal('Entrega em SP');
    expect(m.extraData.buttonReply).to.deep.equal({ kind: 'list_reply', id: 'entrega-sp', title: 'Entrega em SP', description: 'Até 2 dias úteis' });
  });

  it('shared contacts arrive as a contact card (name, phones with their WhatsApp id, e-mails, company) with a text version', async () => {
    await deliver([
      {
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'João Fornecedor', first_name: 'João', last_name: 'Fornecedor' },
            phones: [{ phone: '+55 11 98888-7777', wa_id: '5511988887777', type: 'CELL' }],
            emails: [{ email: 'joao@fornecedor.com.br', type: 'WORK' }],
            org: { company: 'Fornecedor Ltda' },
          },
        ],
      },
    ]);
    const m = await lastCustomerMessage();
    expect(m.extraData.contacts).to.deep.equal([
      { name: 'João Fornecedor', phones: [{ phone: '+55 11 98888-7777', waId: '5511988887777', type: 'CELL' }], emails: ['joao@fornecedor.com.br'], org: 'Fornecedor Ltda' },
    ]);
    expect(m.text).to.include('João Fornecedor').and.include('+55 11 98888-7777').and.include('joao@fornecedor.com.br');
    expect(m.text).to.not.include('não suportada');
  });

  it('a location keeps its coordinates for the map link card', async () => {
    await deliver([{ type: 'location', location: { latitude: -22.9068, longitude: -43.1729, name: 'Loja Rio', address: 'Av. Rio Branco, 1' } }]);
    const m = await lastCustomerMessage();
    expect(m.extraData.location).to.deep.equal({ latitude: -22.9068, longitude: -43.1729, name: 'Loja Rio', address: 'Av. Rio Branco, 1' });
    expect(m.text).to.include('https://maps.google.com/?q=-22.9068,-43.1729');
  });
});
