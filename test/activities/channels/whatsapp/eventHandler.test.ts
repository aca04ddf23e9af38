import { expect } from 'chai';
import { Boom } from '@hapi/boom';
import { DisconnectReason, WAMessageStubType, type WAMessage } from 'baileys';
import type { proto } from 'baileys';
import { waProto } from '../../../../activities/channels/whatsapp/waProto';
import { startTestApi, type TestApi } from '../../../helpers/api';
import { attachQrHandlers, decideOnClose, reasonOfClose, type CloseDecision, type QrHandler } from '../../../../activities/channels/whatsapp/eventHandler';
import { usePostgresAuthState, type PostgresAuthState } from '../../../../activities/channels/whatsapp/authState';
import { createStateCipher } from '../../../../activities/channels/whatsapp/stateCipher';
import { FakeQrSocket } from '../../../fakes/baileys';
import { makeQrLine, type TestQrLine } from '../../../channels/whatsapp/qr/helpers';
import { InboundStorageFullError } from '../../../../api/channels/inboundFile';
import { topics } from '../../../../api/realtime/publisher';
import { makeOperator } from '../../../helpers/factories';
import { Clients, inbox, subscribeCodes, waitFor, type Received } from '../../../realtime/mqttClients';

const CUSTOMER = '5511988887777@s.whatsapp.net';
const CUSTOMER_LID = '211234567890123@lid';
let seq = 0;
const msgId = () => `3EB0${Date.now().toString(16).toUpperCase()}${++seq}`;

/** A received message as Baileys' decodeMessageNode + decrypt builds it. */
function waMessage(message: proto.IMessage, over: { remoteJid?: string; participant?: string; id?: string; pushName?: string } = {}): WAMessage {
  return waProto.WebMessageInfo.fromObject({
    key: { remoteJid: over.remoteJid ?? CUSTOMER, fromMe: false, id: over.id ?? msgId(), ...(over.participant ? { participant: over.participant } : {}) },
    messageTimestamp: Math.floor(Date.now() / 1000) - 5,
    pushName: over.pushName ?? 'Maria Cliente',
    message,
  });
}

describe('WhatsApp QR event handler: Baileys events through a fake socket', () => {
  let api: TestApi;
  let line: TestQrLine & { allowGroups: boolean };
  let socket: FakeQrSocket;
  let handler: QrHandler;
  let auth: PostgresAuthState;
  let closes: CloseDecision[];
  let fetched: string[];
  const cipher = createStateCipher('chave-handler');

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  async function attach(allowGroups = false, mediaLimit = 16 * 1024 * 1024) {
    line = { ...(await makeQrLine(api.deps.knex, { allowGroups })), allowGroups };
    socket = new FakeQrSocket();
    auth = await usePostgresAuthState(api.deps.knex, cipher, line);
    closes = [];
    fetched = [];
    handler = attachQrHandlers(
      {
        ...api.deps,
        auth,
        onClose: (d) => closes.push(d),
        groupName: async () => 'Grupo da Loja',
        fetchMedia: async (_m, parsed) => {
          fetched.push(parsed.media!.kind);
          if (parsed.media!.size > mediaLimit) return { tooLarge: true };
          if (parsed.media!.fileName === 'sem-espaco.pdf') throw new InboundStorageFullError('sem-espaco.pdf');
          return { key: `k${seq}`, fileName: parsed.media!.fileName, mime: parsed.media!.mime, size: parsed.media!.size };
        },
      },
      line,
      socket,
    );
  }
  const channelRow = () => api.deps.knex('channels').where({ id: line.channelId }).first('status', 'status_reason');
  const conversations = () => api.deps.knex('customer_platforms').where({ channelId: line.channelId }).select('id', 'external_id', 'customer_id');
  const messagesOf = () => api.deps.knex('messages').where({ channelId: line.channelId }).orderBy('id').select('id', 'external_id', 'text', 'content', 'reply_to_id', 'extra_data', 'is_deleted', 'status', 'sender');

  describe('connection', () => {
    beforeEach(() => attach());

    it('a QR is stored for the reading modal and the line shows qr_code; open clears it and shows connected', async () => {
      socket.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined });
      socket.emit('connection.update', { qr: '2@abc,def,ghi,jkl' });
      await handler.idle();
      expect((await channelRow()).status).to.equal('qr_code');
      expect((await api.deps.knex('whatsapp_connections').where({ channelId: line.channelId }).first()).qrcode).to.equal('2@abc,def,ghi,jkl');
      auth.state.creds.me = { id: '5511999990000:3@s.whatsapp.net', lid: '99887766:3@lid' };
      socket.emit('connection.update', { connection: 'open' });
      await handler.idle();
      expect((await channelRow()).status).to.equal('connected');
      const conn = await api.deps.knex('whatsapp_connections').where({ channelId: line.channelId }).first();
      expect(conn).to.include({ qrcode: null, meJid: '5511999990000@s.whatsapp.net', meLid: '99887766@lid' });
    });

    it('creds.update saves the creds (a restart resumes without a new QR)', async () => {
      auth.state.creds.me = { id: '5511999990000:3@s.whatsapp.net' };
      auth.state.creds.registered = true;
      socket.emit('creds.update', { me: auth.state.creds.me, registered: true });
      await handler.idle();
      const again = await usePostgresAuthState(api.deps.knex, cipher, line);
      expect(again.state.creds.me?.id).to.equal('5511999990000:3@s.whatsapp.net');
    });

    it('logged out: session dropped, line disconnected, no reconnect', async () => {
      auth.state.creds.me = { id: '5511999990000:3@s.whatsapp.net' };
      await auth.saveCreds();
      socket.emit('connection.update', { connection: 'close', lastDisconnect: { error: new Boom('Intentional Logout', { statusCode: DisconnectReason.loggedOut }), date: new Date() } });
      await handler.idle();
      expect(closes).to.deep.equal([{ action: 'stop', loggedOut: true, clearSession: true, reason: 'loggedOut' }]);
      // Not 'tentando reconectar': nothing reconnects a logged-out line; its label asks for a new QR.
      expect(await channelRow()).to.deep.equal({ status: 'disconnected', statusReason: 'qr_logged_out' });
      expect(await api.deps.knex('whatsapp_auth_state').where({ channelId: line.channelId })).to.have.length(0);
    });

    it('connection lost: reconnects with backoff, the session kept, the line shown connecting', async () => {
      auth.state.creds.me = { id: '5511999990000:3@s.whatsapp.net' };
      await auth.saveCreds();
      socket.emit('connection.update', { connection: 'close', lastDisconnect: { error: new Boom('Connection was lost', { statusCode: DisconnectReason.connectionLost }), date: new Date() } });
      await handler.idle();
      expect(closes).to.deep.equal([{ action: 'reconnect', backoff: true, clearSession: false, reason: 'timedOut' }]);
      expect(await channelRow()).to.deep.equal({ status: 'processing_channel', statusReason: 'reconnecting' });
      // The next socket's 'connecting' keeps saying it is reconnecting; opening clears the reason.
      socket.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined });
      await handler.idle();
      expect(await channelRow()).to.deep.equal({ status: 'processing_channel', statusReason: 'reconnecting' });
      socket.emit('connection.update', { connection: 'open' });
      await handler.idle();
      expect(await channelRow()).to.deep.equal({ status: 'connected', statusReason: null });
      expect(await api.deps.knex('whatsapp_auth_state').where({ channelId: line.channelId })).to.have.length(1);
    });
  });

  it('a stopped line says what the user must do, a line in backoff that it is reconnecting', () => {
    const reason = (code: number, linked = true) => reasonOfClose(decideOnClose(code, linked));
    expect(reason(DisconnectReason.loggedOut)).to.equal('qr_logged_out');
    expect(reason(DisconnectReason.multideviceMismatch)).to.equal('qr_logged_out');
    expect(reason(DisconnectReason.timedOut, false)).to.equal('qr_logged_out');
    expect(reason(DisconnectReason.connectionReplaced)).to.equal('qr_stopped');
    expect(reason(DisconnectReason.forbidden)).to.equal('qr_stopped');
    expect(reason(DisconnectReason.connectionLost)).to.equal('reconnecting');
    expect(reason(DisconnectReason.restartRequired)).to.equal(null);
  });

  it('every DisconnectReason has its rule', () => {
    const d = (code: number, linked = true) => {
      const r = decideOnClose(code, linked);
      return `${r.action}${r.action === 'reconnect' ? (r.backoff ? '+backoff' : '+now') : r.loggedOut ? '+loggedOut' : ''}${r.clearSession ? '+clear' : ''}`;
    };
    expect(d(DisconnectReason.restartRequired)).to.equal('reconnect+now');
    expect(d(DisconnectReason.connectionClosed)).to.equal('reconnect+backoff');
    expect(d(DisconnectReason.connectionLost)).to.equal('reconnect+backoff');
    expect(d(DisconnectReason.timedOut, false)).to.equal('stop');
    expect(d(DisconnectReason.unavailableService)).to.equal('reconnect+backoff');
    expect(d(DisconnectReason.badSession)).to.equal('reconnect+backoff+clear');
    expect(d(DisconnectReason.loggedOut)).to.equal('stop+loggedOut+clear');
    expect(d(DisconnectReason.multideviceMismatch)).to.equal('stop+loggedOut+clear');
    expect(d(DisconnectReason.connectionReplaced)).to.equal('stop');
    expect(d(DisconnectReason.forbidden)).to.equal('stop');
  });

  describe('messages', () => {
    beforeEach(() => attach());

    it('text, quoted reply, image, voice note, video, document, sticker and location arrive as messages of one conversation', async () => {
      const first = msgId();
      socket.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage({ conversation: 'Oi, tudo bem?' }, { id: first }),
          waMessage({ extendedTextMessage: { text: 'Respondendo', contextInfo: { stanzaId: first, participant: CUSTOMER, quotedMessage: { conversation: 'Oi, tudo bem?' } } } }),
          waMessage({ imageMessage: { mimetype: 'image/jpeg', caption: 'Foto do produto', fileLength: 2048, url: 'https://mmg.whatsapp.net/x' } }),
          waMessage({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 4, fileLength: 900 } }),
          waMessage({ videoMessage: { mimetype: 'video/mp4', fileLength: 5000 } }),
          waMessage({ documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf', fileLength: 3000 } }),
          waMessage({ stickerMessage: { mimetype: 'image/webp', fileLength: 100 } }),
          waMessage({ locationMessage: { degreesLatitude: -23.55, degreesLongitude: -46.63, name: 'Loja Centro' } }),
        ],
      });
      await handler.idle();
      const convs = await conversations();
      expect(convs.map((c) => c.externalId)).to.deep.equal([CUSTOMER]);
      const customer = await api.deps.knex('customers').where({ id: convs[0].customerId }).first('name', 'phone');
      expect(customer).to.deep.equal({ name: 'Maria Cliente', phone: '5511988887777' });
      const rows = await messagesOf();
      expect(rows.map((r) => r.text)).to.deep.equal([
        'Oi, tudo bem?',
        'Respondendo',
        'Foto do produto\nimage-' + rows[2].externalId + '.jpg',
        'audio-' + rows[3].externalId + '.ogg',
        'video-' + rows[4].externalId + '.mp4',
        'boleto.pdf',
        'sticker-' + rows[6].externalId + '.webp',
        '📍 Loja Centro\nhttps://maps.google.com/?q=-23.55,-46.63',
      ]);
      expect(rows[1].replyToId).to.equal(rows[0].id);
      expect(fetched).to.deep.equal(['image', 'audio', 'video', 'document', 'sticker']);
      expect(rows[3].extraData.whatsapp).to.deep.equal({ mediaKind: 'audio', voiceNote: true });
      expect(rows[5].content[0].file).to.include({ fileName: 'boleto.pdf', mime: 'application/pdf', size: 3000 });
    });

    it('a replayed upsert (reconnect, history) stores nothing twice', async () => {
      const m = waMessage({ conversation: 'Uma vez só' });
      socket.emit('messages.upsert', { type: 'notify', messages: [m] });
      socket.emit('messages.upsert', { type: 'append', messages: [m] });
      await handler.idle();
      expect(await messagesOf()).to.have.length(1);
    });

    it('media over 16 MB is not stored: the message carries a visible note', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ videoMessage: { mimetype: 'video/mp4', fileLength: 16 * 1024 * 1024 + 1, caption: 'vídeo grande' } })] });
      await handler.idle();
      const [row] = await messagesOf();
      expect(row.text).to.equal('vídeo grande\nArquivo recebido maior que 16 MB: não foi baixado.');
      expect(row.extraData.whatsapp.mediaRefused).to.equal(true);
    });

    it('a file past the workspace storage budget is not lost with its message: the message carries the note', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ documentMessage: { mimetype: 'application/pdf', fileName: 'sem-espaco.pdf', fileLength: 3000, caption: 'segue' } })] });
      await handler.idle();
      const [row] = await messagesOf();
      expect(row.text).to.equal('segue\nArquivo "sem-espaco.pdf" não recebido: o espaço para arquivos deste workspace (10 GB) está cheio.');
      expect(row.extraData.whatsapp.mediaRefused).to.equal(true);
    });

    it('our own messages (fromMe), status broadcasts and protocol messages are not stored as customer messages', async () => {
      socket.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waProto.WebMessageInfo.fromObject({ key: { remoteJid: CUSTOMER, fromMe: true, id: msgId() }, message: { conversation: 'enviado do celular' } }),
          waMessage({ conversation: 'status' }, { remoteJid: 'status@broadcast', participant: CUSTOMER }),
          waMessage({ protocolMessage: { type: waProto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 0 } }),
        ],
      });
      await handler.idle();
      expect(await messagesOf()).to.have.length(0);
    });

    it('a message deleted on the phone becomes a removed message', async () => {
      const id = msgId();
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'apagar isto' }, { id })] });
      // As process-message emits it for a REVOKE protocol message.
      socket.emit('messages.update', [{ key: { remoteJid: CUSTOMER, fromMe: false, id }, update: { message: null, messageStubType: WAMessageStubType.REVOKE, key: { remoteJid: CUSTOMER, fromMe: false, id: msgId() } } }]);
      await handler.idle();
      const [row] = await messagesOf();
      expect(row).to.include({ isDeleted: true, text: '' });
      expect(row.content).to.deep.equal([]);
    });

    it('receipts move an agent message forward (received, delivered, read) and never back', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'Olá' })] });
      await handler.idle();
      const [customerMsg] = await messagesOf();
      const conv = (await conversations())[0];
      const agentExternal = msgId();
      await api.deps.knex('messages').insert({
        workspaceId: line.workspaceId, customerPlatformId: conv.id, callId: (await api.deps.knex('customer_platforms').where({ id: conv.id }).first('current_call_id')).currentCallId,
        externalId: agentExternal, content: JSON.stringify([{ insert: 'Resposta\n' }]), text: 'Resposta', type: 0, status: 1, sender: 'operator',
      });
      const status = async () => (await api.deps.knex('messages').where({ channelId: line.channelId, externalId: agentExternal }).first('status')).status;
      const key = { remoteJid: CUSTOMER, fromMe: true, id: agentExternal };
      socket.emit('messages.update', [{ key, update: { status: waProto.WebMessageInfo.Status.SERVER_ACK } }]);
      await handler.idle();
      expect(await status()).to.equal(2);
      socket.emit('messages.update', [{ key, update: { status: waProto.WebMessageInfo.Status.DELIVERY_ACK } }]);
      await handler.idle();
      expect(await status()).to.equal(3);
      socket.emit('message-receipt.update', [{ key, receipt: { userJid: CUSTOMER, readTimestamp: Math.floor(Date.now() / 1000) } }]);
      await handler.idle();
      expect(await status()).to.equal(4);
      socket.emit('messages.update', [{ key, update: { status: waProto.WebMessageInfo.Status.DELIVERY_ACK } }]);
      await handler.idle();
      expect(await status()).to.equal(4);
      // A customer's message is not ours to mark.
      socket.emit('messages.update', [{ key: { remoteJid: CUSTOMER, fromMe: true, id: customerMsg.externalId }, update: { status: waProto.WebMessageInfo.Status.READ } }]);
      await handler.idle();
      expect((await messagesOf())[0].status).to.equal(2);
    });
  });

  describe('live events: the team sees receipts and phone-side deletions without a reload', () => {
    let clients: Clients;
    let received: Received[];
    beforeEach(async () => {
      await attach();
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, { id: line.workspaceId, name: 'Empresa' }, 10);
      clients = new Clients(api.url);
      const client = await clients.connect(String(owner.id), owner.token);
      received = inbox(client);
      expect(await subscribeCodes(client, [topics.operator(line.workspaceId, owner.id)])).to.deep.equal([1]);
    });
    afterEach(() => clients.endAll());

    const statusEvents = () => received.filter((r) => r.envelope.event === 'chat.messageStatus').map((r) => r.envelope.data as Record<string, unknown>);

    it('a receipt (delivered, then read) publishes chat.messageStatus with the new status', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'Olá' })] });
      await handler.idle();
      const conv = (await conversations())[0];
      const agentExternal = msgId();
      const [agent] = await api.deps.knex('messages').insert({
        workspaceId: line.workspaceId, customerPlatformId: conv.id, callId: (await api.deps.knex('customer_platforms').where({ id: conv.id }).first('current_call_id')).currentCallId,
        externalId: agentExternal, content: JSON.stringify([{ insert: 'Resposta\n' }]), text: 'Resposta', type: 0, status: 1, sender: 'operator',
      }).returning('id');
      const key = { remoteJid: CUSTOMER, fromMe: true, id: agentExternal };
      socket.emit('messages.update', [{ key, update: { status: waProto.WebMessageInfo.Status.DELIVERY_ACK } }]);
      await waitFor(() => statusEvents().length === 1, 15_000, 'the delivered chat.messageStatus');
      expect(statusEvents()[0]).to.deep.include({ conversationId: conv.id, messageId: agent.id, status: 3 });
      socket.emit('message-receipt.update', [{ key, receipt: { userJid: CUSTOMER, readTimestamp: Math.floor(Date.now() / 1000) } }]);
      await waitFor(() => statusEvents().length === 2, 15_000, 'the read chat.messageStatus');
      expect(statusEvents()[1]).to.deep.include({ conversationId: conv.id, messageId: agent.id, status: 4 });
      // A late receipt that moves nothing publishes nothing.
      socket.emit('messages.update', [{ key, update: { status: waProto.WebMessageInfo.Status.DELIVERY_ACK } }]);
      await handler.idle();
      await new Promise((r) => setTimeout(r, 200));
      expect(statusEvents()).to.have.length(2);
    });

    it('a message deleted on the phone publishes chat.messageStatus with isDeleted', async () => {
      const id = msgId();
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'apagar isto' }, { id })] });
      await handler.idle();
      const [row] = await messagesOf();
      const conv = (await conversations())[0];
      socket.emit('messages.update', [{ key: { remoteJid: CUSTOMER, fromMe: false, id }, update: { message: null, messageStubType: WAMessageStubType.REVOKE, key: { remoteJid: CUSTOMER, fromMe: false, id: msgId() } } }]);
      await waitFor(() => statusEvents().length === 1, 15_000, 'the deletion chat.messageStatus');
      expect(statusEvents()[0]).to.deep.include({ conversationId: conv.id, messageId: row.id, isDeleted: true });
    });
  });

  describe('groups', () => {
    const GROUP = '120363041234567890@g.us';
    const groupMsg = () => waMessage({ conversation: 'Oi grupo' }, { remoteJid: GROUP, participant: '5511977776666@s.whatsapp.net', pushName: 'João' });

    it('are ignored when the line does not allow groups', async () => {
      await attach(false);
      socket.emit('messages.upsert', { type: 'notify', messages: [groupMsg()] });
      await handler.idle();
      expect(await messagesOf()).to.have.length(0);
    });

    it('arrive as the group conversation, with the group name and each member’s name, when allowGroups', async () => {
      await attach(true);
      socket.emit('messages.upsert', { type: 'notify', messages: [groupMsg()] });
      await handler.idle();
      const convs = await conversations();
      expect(convs.map((c) => c.externalId)).to.deep.equal([GROUP]);
      expect((await api.deps.knex('customers').where({ id: convs[0].customerId }).first('name')).name).to.equal('Grupo da Loja');
      expect((await messagesOf())[0].extraData.whatsapp).to.deep.equal({ participant: '5511977776666@s.whatsapp.net', participantName: 'João' });
    });
  });

  describe('LID identity: one person, one customer, one conversation', () => {
    beforeEach(() => attach());

    it('phone JID, then LID (mapping unknown), then the mapping revealed: merged into one customer and one conversation with the whole history', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: '1 pelo número' })] });
      await handler.idle();
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: '2 pelo lid' }, { remoteJid: CUSTOMER_LID })] });
      await handler.idle();
      expect(await conversations()).to.have.length(2);
      // As messages-recv emits it for a SHARE_PHONE_NUMBER protocol message (stanza attr sender_pn).
      socket.emit('chats.phoneNumberShare', { lid: CUSTOMER_LID, jid: CUSTOMER });
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: '3 pelo lid, já mapeado' }, { remoteJid: CUSTOMER_LID })] });
      await handler.idle();
      const convs = await conversations();
      expect(convs.map((c) => c.externalId)).to.deep.equal([CUSTOMER]);
      expect(await api.deps.knex('customers').whereIn('id', [convs[0].customerId]).count('* as n').first()).to.deep.equal({ n: 1 });
      const customersOfWs = await api.deps.knex('customers').where({ workspaceId: line.workspaceId }).select('id');
      expect(customersOfWs).to.have.length(1);
      const rows = await api.deps.knex('messages').where({ customerPlatformId: convs[0].id }).orderBy('id').select('text', 'call_id');
      expect(rows.map((r) => r.text)).to.deep.equal(['1 pelo número', '2 pelo lid', '3 pelo lid, já mapeado']);
      expect(new Set(rows.map((r) => r.callId)).size).to.equal(1);
      const open = await api.deps.knex('calls').where({ customerPlatformId: convs[0].id, isFinished: false });
      expect(open).to.have.length(1);
    });

    it('first contact by LID, mapping revealed by contacts.upsert: the conversation takes the phone JID and later phone messages join it', async () => {
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'oi pelo lid' }, { remoteJid: CUSTOMER_LID })] });
      await handler.idle();
      socket.emit('contacts.upsert', [{ id: CUSTOMER, lid: CUSTOMER_LID, notify: 'Maria' }]);
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'agora pelo número' })] });
      await handler.idle();
      const convs = await conversations();
      expect(convs.map((c) => c.externalId)).to.deep.equal([CUSTOMER]);
      expect((await api.deps.knex('customers').where({ id: convs[0].customerId }).first('phone')).phone).to.equal('5511988887777');
      expect(await messagesOf()).to.have.length(2);
    });

    it('a LID whose mapping is already known never opens a second conversation', async () => {
      socket.emit('chats.phoneNumberShare', { lid: CUSTOMER_LID, jid: CUSTOMER });
      socket.emit('messages.upsert', { type: 'notify', messages: [waMessage({ conversation: 'a' }, { remoteJid: '211234567890123:7@lid' }), waMessage({ conversation: 'b' })] });
      await handler.idle();
      expect((await conversations()).map((c) => c.externalId)).to.deep.equal([CUSTOMER]);
    });
  });
});
