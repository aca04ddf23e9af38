import { Readable } from 'node:stream';
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { STORAGE_BUDGETS } from '../../../api/assets/storageBudgets';
import { createStorage } from '../../../api/storage/storage';
import { startTestApi, type TestApi } from '../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { messageUpdate, TELEGRAM_ERRORS, TelegramFake } from '../../fakes/telegram';
import { makeOwner, messageRow as storedMessage, postAgentMessage, prepareWorker, until, untilDeliveryState, withChannelWorker, type WorkerSetup, deliverTelegramUpdate } from '../helpers';

describe('Telegram lines: bot token checked by getMe, secret-token webhooks in, agent replies out through the Bot API', function () {
  this.timeout(90_000);
  const telegram = new TelegramFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let botToken: string;
  let line: { id: number; identifier: string; status: string; channelId: string; botUsername: string };
  let secret: string;
  let user: { id: number; first_name: string; last_name: string; username: string };

  before(async () => {
    await telegram.start();
    // Telegram only calls HTTPS webhooks on ports 443/80/88/8443 (the fake refuses others): the api's
    // public address is such one, and the tests post the Updates to its loopback address themselves.
    api = await startTestApi({ temporalTaskQueue: unique('telegram'), telegramApiUrl: telegram.url, publicUrl: 'https://balcao.example' });
    worker = await prepareWorker();
  });
  after(async () => {
    await worker?.connection.close();
    await api?.close();
    await telegram.stop();
  });
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    botToken = telegram.addBot().token;
    telegram.calls.length = 0;
    telegram.nextSendErrors.length = 0;
    const res = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: botToken, description: 'Bot da loja' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    line = res.body.data;
    secret = telegram.webhooks.get(botToken)!.secret_token!;
    user = { id: 5_000_000 + Math.floor(Math.random() * 10 ** 6), first_name: 'Ana', last_name: 'Cliente', username: 'ana_cliente' };
  });

  const hookUrl = () => `${api.url}/api/hooks/telegram/${line.identifier}`;
  const deliver = (extra: Record<string, unknown>) => deliverTelegramUpdate(api, hookUrl(), messageUpdate(user, extra), secret);
  const messagesOf = () => api.deps.knex('messages').where({ channelId: line.id }).orderBy('id');
  const messageRow = (id: number) => storedMessage(api, id);
  /** Objects in the store (temporary .part files included: a refused file must leave none behind). */
  const storedObjects = async () => (await readdir(path.join(api.config.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;

  const withWorker = (fn: () => Promise<void>, publisher = api.deps.publisher) =>
    withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 5_000, maxAttempts: 4 }, publisher });
  async function conversation(): Promise<number> {
    expect((await deliver({ text: 'Olá' })).status).to.equal(200);
    const [m] = await messagesOf();
    return m.customerPlatformId;
  }
  async function reply(body: Record<string, unknown>, state: 'sent' | 'failed' = 'sent'): Promise<number> {
    let id = 0;
    await withWorker(async () => {
      id = await postAgentMessage(api, owner, body);
      await untilDeliveryState(api, id, state);
    });
    return id;
  }

  describe('adding and removing a line', () => {
    it('checks the token with getMe, then sets the webhook to PUBLIC_URL/api/hooks/telegram/{identifier} with a random secret and the update types', async () => {
      expect(line).to.include({ channelId: 'telegram', status: 'connected', description: 'Bot da loja' });
      expect(line.identifier).to.match(/^[0-9a-f]{32}$/);
      const hook = telegram.webhooks.get(botToken)!;
      expect(hook.url).to.equal(`${api.config.publicUrl}/api/hooks/telegram/${line.identifier}`);
      expect(hook.secret_token).to.match(/^[A-Za-z0-9_-]{40,256}$/);
      expect(hook.allowed_updates).to.deep.equal(['message', 'edited_message']);
      expect(telegram.calls.map((c) => c.method)).to.deep.equal(['getMe', 'setWebhook']);
    });

    it('a PUBLIC_URL Telegram would refuse (http, or a port other than 443/80/88/8443) is a pt-BR 400 and nothing is saved or sent to Telegram', async () => {
      const { token } = telegram.addBot();
      const base = api.config.publicUrl;
      try {
        for (const publicUrl of ['http://balcao.example', 'https://balcao.example:3000', `http://127.0.0.1:${new URL(api.url).port}`]) {
          api.config.publicUrl = publicUrl;
          telegram.calls.length = 0;
          const res = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: token, description: 'Sem HTTPS' } });
          expect(res.status, publicUrl).to.equal(400);
          expect(res.body.errors[0].descriptions[0]).to.equal(
            `O Telegram só entrega mensagens a um endereço HTTPS nas portas 443, 80, 88 ou 8443, e o endereço público deste servidor (PUBLIC_URL) é ${new URL(publicUrl).origin}. Peça ao administrador para configurar um PUBLIC_URL assim e tente novamente.`,
          );
          expect(telegram.calls, publicUrl).to.deep.equal([]);
          const put = await api.request('PUT', `/api/integrations/telegram/${line.id}`, { token: owner.token, body: { identifier: botToken, description: 'Bot da loja' } });
          expect(put.status, publicUrl).to.equal(400);
        }
        api.config.publicUrl = 'https://balcao.example:8443';
        const ok = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: token, description: 'Porta 8443' } });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
        expect(telegram.webhooks.get(token)!.url).to.equal(`https://balcao.example:8443/api/hooks/telegram/${ok.body.data.identifier}`);
      } finally {
        api.config.publicUrl = base;
      }
      expect(await api.deps.knex('channels').where({ workspaceId: ws.id, description: 'Sem HTTPS' })).to.have.length(0);
    });

    it('the Bot API fake refuses a webhook that is not HTTPS or not on 443/80/88/8443, as Telegram does', async () => {
      const call = (url: string) =>
        fetch(`${telegram.url}/bot${botToken}/setWebhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { ok: boolean; description?: string } }));
      expect(await call('http://balcao.example/api/hooks/telegram/x')).to.deep.include({ status: 400 });
      expect((await call('http://balcao.example/api/hooks/telegram/x')).body.description).to.equal('Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
      expect((await call('https://balcao.example:3000/x')).body.description).to.equal('Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
      for (const good of ['https://balcao.example/x', 'https://balcao.example:88/x', 'https://balcao.example:80/x', 'https://balcao.example:8443/x']) expect((await call(good)).body, good).to.deep.equal({ ok: true, result: true });
    });

    it('never returns or stores the bot token or the secret in clear', async () => {
      const row = await api.deps.knex('channels').where({ id: line.id }).first();
      for (const text of [JSON.stringify(line), JSON.stringify(row), JSON.stringify((await api.request('GET', '/api/integrations/channel', { token: owner.token })).body)]) {
        expect(text).to.not.include(botToken).and.not.include(secret);
      }
    });

    it('a wrong token is a pt-BR field error on identifier and nothing is saved or registered', async () => {
      const before = await api.deps.knex('channels').where({ workspaceId: ws.id }).count('* as n').first();
      const wrong = `${botToken.split(':')[0]}:AAwrongwrongwrongwrongwrongwrongwr`;
      telegram.calls.length = 0;
      const res = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: wrong, description: 'Outro' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.deep.include({ key: 'identifier', descriptions: ['Token do bot inválido. Copie o token que o @BotFather enviou.'] });
      expect(telegram.callsOf('setWebhook')).to.have.length(0);
      expect(await api.deps.knex('channels').where({ workspaceId: ws.id }).count('* as n').first()).to.deep.equal(before);
    });

    it('no answer from Telegram is a field error too, and nothing is saved', async () => {
      const { token } = telegram.addBot();
      const base = api.config.telegramApiUrl;
      api.config.telegramApiUrl = 'http://127.0.0.1:9';
      try {
        const res = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: token, description: 'Fora do ar' } });
        expect(res.status).to.equal(400);
        expect(res.body.errors[0].key).to.equal('identifier');
        expect(res.body.errors[0].descriptions[0]).to.include('Sem contato com o Telegram');
      } finally {
        api.config.telegramApiUrl = base;
      }
      expect(await api.deps.knex('channels').where({ workspaceId: ws.id, description: 'Fora do ar' })).to.have.length(0);
    });

    it('refuses a token that is not shaped like a bot token, and the same bot twice', async () => {
      const bad = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: 'abc', description: '' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['description', 'identifier']);
      const again = await api.request('POST', '/api/integrations/telegram', { token: owner.token, body: { identifier: botToken, description: 'De novo' } });
      expect(again.status).to.equal(400);
      expect(again.body.errors[0].descriptions[0]).to.equal('Este bot já está conectado a uma linha de Telegram.');
    });

    it('PUT changes the description; a new token of the same bot (after /revoke) is checked, re-registers the webhook with a new secret and reconnects the line', async () => {
      const put = (body: Record<string, unknown>) => api.request('PUT', `/api/integrations/telegram/${line.id}`, { token: owner.token, body });
      const renamed = await put({ description: 'Bot novo nome', identifier: '' });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      expect(renamed.body.data).to.include({ id: line.id, description: 'Bot novo nome', identifier: line.identifier, status: 'connected' });

      // BotFather's /revoke: the old token stops working, the line is disconnected by the next send.
      const [botId] = botToken.split(':');
      telegram.revokeToken(botToken);
      await api.deps.knex('channels').where({ id: line.id }).update({ status: 'disconnected' });
      const { token: otherBot } = telegram.addBot();
      const other = await put({ description: 'Bot novo nome', identifier: otherBot });
      expect(other.status).to.equal(400);
      expect(other.body.errors[0]).to.deep.include({ key: 'identifier', descriptions: ['Este token é de outro bot. Para usar outro bot, adicione uma nova linha.'] });
      const wrong = await put({ description: 'Bot novo nome', identifier: `${botId}:AAwrongwrongwrongwrongwrongwrongwr` });
      expect(wrong.body.errors[0]).to.deep.include({ key: 'identifier', descriptions: ['Token do bot inválido. Copie o token que o @BotFather enviou.'] });
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');

      const newToken = telegram.addBotWithId(Number(botId)).token;
      telegram.calls.length = 0;
      const fixed = await put({ description: 'Bot da loja', identifier: newToken });
      expect(fixed.status, JSON.stringify(fixed.body)).to.equal(200);
      expect(fixed.body.data).to.include({ status: 'connected', description: 'Bot da loja', identifier: line.identifier });
      expect(JSON.stringify(fixed.body)).to.not.include(newToken);
      expect(telegram.calls.map((c) => [c.method, c.token])).to.deep.equal([['getMe', newToken], ['setWebhook', newToken]]);
      const hook = telegram.webhooks.get(newToken)!;
      expect(hook.url).to.equal(`${api.config.publicUrl}/api/hooks/telegram/${line.identifier}`);
      expect(hook.secret_token).to.not.equal(secret);
      expect((await deliverTelegramUpdate(api, hookUrl(), messageUpdate(user, { text: 'segredo antigo' }), secret)).status).to.equal(401);
      expect((await deliverTelegramUpdate(api, hookUrl(), messageUpdate(user, { text: 'de volta' }), hook.secret_token!)).status).to.equal(200);
      const id = (await messagesOf())[0].customerPlatformId;
      await reply({ id, content: delta('Voltamos!') });
      expect(telegram.callsOf('sendMessage').map((c) => c.token)).to.deep.equal([newToken]);
    });

    it('deleting the line calls deleteWebhook and its hook URL answers 404 afterwards', async () => {
      const res = await api.request('DELETE', `/api/integrations/telegram/${line.id}`, { token: owner.token });
      expect(res.status).to.equal(200);
      expect(telegram.callsOf('deleteWebhook')).to.have.length(1);
      expect(telegram.webhooks.has(botToken)).to.equal(false);
      expect((await deliver({ text: 'oi' })).status).to.equal(404);
    });
  });

  describe('secret token', () => {
    it('a missing or wrong X-Telegram-Bot-Api-Secret-Token answers 401 and stores nothing', async () => {
      const update = messageUpdate(user, { text: 'forjada' });
      expect((await deliverTelegramUpdate(api, hookUrl(), update, null)).status).to.equal(401);
      expect((await deliverTelegramUpdate(api, hookUrl(), update, `${secret}x`)).status).to.equal(401);
      expect((await deliverTelegramUpdate(api, hookUrl(), update, secret.slice(0, -1))).status).to.equal(401);
      expect(await messagesOf()).to.have.length(0);
      expect(await api.deps.knex('inbound_events').where({ channelId: line.id })).to.have.length(0);
    });
  });

  describe('inbound updates', () => {
    it('stores text as a customer message in the conversation of the chat, named after the user', async () => {
      expect((await deliver({ text: 'Oi, tudo bem?' })).status).to.equal(200);
      const [m] = await messagesOf();
      expect(m).to.include({ sender: 'customer', text: 'Oi, tudo bem?', externalId: `${user.id}:1` });
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      expect(cp.externalId).to.equal(String(user.id));
      expect((await api.deps.knex('customers').where({ id: cp.customerId }).first()).name).to.equal('Ana Cliente');
    });

    it('a replayed update_id (10 times in parallel) stores one message', async () => {
      const update = messageUpdate(user, { text: 'uma vez só' });
      const answers = await Promise.all(Array.from({ length: 10 }, () => deliverTelegramUpdate(api, hookUrl(), update, secret)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
      expect(await messagesOf()).to.have.length(1);
    });

    for (const [kind, mime, path, extra] of [
      ['photo', 'image/jpeg', 'photos/file_1.jpg', { caption: 'foto do produto' }],
      ['document', 'application/pdf', 'documents/file_2.pdf', { file_name: 'boleto.pdf', mime_type: 'application/pdf' }],
      ['voice', 'audio/ogg', 'voice/file_3.oga', { mime_type: 'audio/ogg', duration: 3 }],
      ['audio', 'audio/mpeg', 'music/file_4.mp3', { mime_type: 'audio/mpeg', file_name: 'musica.mp3', duration: 30 }],
      ['video', 'video/mp4', 'videos/file_5.mp4', { mime_type: 'video/mp4', duration: 5, width: 320, height: 240 }],
      ['sticker', 'image/webp', 'stickers/file_6.webp', { is_animated: false, is_video: false, emoji: '😀', type: 'regular', width: 512, height: 512 }],
    ] as const) {
      it(`downloads a ${kind} with getFile into our storage`, async () => {
        const bytes = Buffer.from(`${kind}-bytes-${Math.random()}`);
        const file = telegram.addFile(bytes, path);
        const { caption, ...fields } = extra as Record<string, unknown>;
        const media = kind === 'photo' ? [{ ...file, file_size: 10, width: 90, height: 90 }, { ...file, width: 800, height: 800 }] : { ...file, ...fields };
        expect((await deliver({ [kind]: media, ...(caption ? { caption } : {}) })).status).to.equal(200);
        const [m] = await messagesOf();
        expect(m.isMedia).to.equal(true);
        const stored = (m.content as { file?: { key: string; mime: string; size: number; fileName: string } }[])[0].file!;
        expect(stored).to.include({ mime, size: bytes.length });
        if (kind === 'document') expect(stored.fileName).to.equal('boleto.pdf');
        if (kind === 'photo') expect(m.text).to.include('foto do produto');
        const row = await api.deps.knex('stored_files').where({ key: stored.key }).first();
        expect(row).to.include({ workspaceId: ws.id, mime, channelId: line.id });
        const obj = await createStorage(api.config).get(stored.key);
        const chunks: Buffer[] = [];
        for await (const c of obj!.stream) chunks.push(Buffer.from(c as Buffer));
        expect(Buffer.concat(chunks).equals(bytes)).to.equal(true);
      });
    }

    it('media over 16 MB is not downloaded: a visible note instead of the file', async () => {
      const announced = telegram.addFile(Buffer.from('pequeno'), 'videos/grande.mp4', 16 * 1024 * 1024 + 1);
      const hidden = telegram.addFile(Buffer.from('pequeno'), 'documents/escondido.pdf', 17 * 1024 * 1024);
      expect((await deliver({ video: { ...announced, mime_type: 'video/mp4', duration: 1 } })).status).to.equal(200);
      // The message announces nothing; getFile does.
      expect((await deliver({ document: { file_id: hidden.file_id, file_unique_id: hidden.file_unique_id, mime_type: 'application/pdf' } })).status).to.equal(200);
      const rows = await messagesOf();
      expect(rows.map((m) => [m.isMedia, m.text])).to.deep.equal([
        [false, 'Mídia não recebida: o arquivo tem mais de 16 MB.'],
        [false, 'Mídia não recebida: o arquivo tem mais de 16 MB.'],
      ]);
      expect(telegram.callsOf('getFile').map((c) => c.params.file_id)).to.deep.equal([hidden.file_id]);
    });

    it('a file past the workspace storage budget is not kept: a visible note instead, no object and no row left', async () => {
      // The workspace is 10 bytes short of its total budget; an earlier file of another workspace does not count.
      await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: `budget${Date.now()}x`, fileName: 'antigo.bin', mime: 'application/octet-stream', size: STORAGE_BUDGETS.workspaceTotal - 10 });
      const small = telegram.addFile(Buffer.from('cabe!'), 'photos/cabe.jpg');
      const big = telegram.addFile(Buffer.from('não cabe mais aqui'), 'documents/grande.pdf');
      const objectsBefore = await storedObjects();
      expect((await deliver({ document: { ...big, file_name: 'grande.pdf', mime_type: 'application/pdf' } })).status).to.equal(200);
      expect((await deliver({ photo: [{ ...small, width: 90, height: 90 }] })).status).to.equal(200);
      const [refused, kept] = await messagesOf();
      expect(refused).to.include({ isMedia: false, text: 'Arquivo "grande.pdf" não recebido: o espaço para arquivos deste workspace (10 GB) está cheio.' });
      expect(kept.isMedia).to.equal(true);
      expect(await api.deps.knex('stored_files').where({ workspaceId: ws.id, fileName: 'grande.pdf' })).to.have.length(0);
      expect(await storedObjects()).to.equal(objectsBefore + 1);
    });

    it('a location and a contact arrive as text', async () => {
      await deliver({ location: { latitude: -23.55, longitude: -46.63 } });
      await deliver({ contact: { phone_number: '+5511987654321', first_name: 'João', last_name: 'Silva' } });
      const [loc, contact] = await messagesOf();
      expect(loc.text).to.include('https://maps.google.com/?q=-23.55,-46.63');
      expect(contact.text).to.include('João Silva').and.include('+5511987654321');
    });

    it('reply_to_message is stored as a reply to the quoted message', async () => {
      await deliver({ text: 'primeira' });
      const [first] = await messagesOf();
      await deliver({ text: 'respondendo', reply_to_message: { message_id: 1, chat: { id: user.id, type: 'private' }, date: 1, text: 'primeira' } });
      const [, second] = await messagesOf();
      expect(second.replyToId).to.equal(first.id);
    });

    it('edited_message updates the stored message, marks it edited and tells the team; a repeat changes nothing more', async () => {
      await deliver({ text: 'preço errado' });
      const [m] = await messagesOf();
      const events: { event: string; data: Record<string, unknown> }[] = [];
      const publish = api.deps.publisher.publish.bind(api.deps.publisher);
      api.deps.publisher.publish = async <T>(topic: string, event: string, data: T) => (events.push({ event, data: data as Record<string, unknown> }), publish(topic, event, data));
      try {
        const edit = messageUpdate(user, { message_id: 1, text: 'preço certo', edit_date: Math.floor(Date.now() / 1000) }, 'edited_message');
        expect((await deliverTelegramUpdate(api, hookUrl(), edit, secret)).status).to.equal(200);
        expect((await deliverTelegramUpdate(api, hookUrl(), edit, secret)).status).to.equal(200);
      } finally {
        api.deps.publisher.publish = publish;
      }
      const rows = await messagesOf();
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ id: m.id, text: 'preço certo' });
      expect(rows[0].extraData).to.include({ edited: true });
      const status = events.find((e) => e.event === 'chat.messageStatus');
      expect(status?.data).to.include({ messageId: m.id, edited: true, text: 'preço certo' });
    });

    it('an edited_message naming an agent message (one piece or a piece of several) changes nothing and stores nothing', async () => {
      const id = await conversation();
      const single = await reply({ id, content: delta('Seu pedido saiu hoje.') });
      const long = await reply({ id, content: delta(`${'a'.repeat(4000)}\n${'b'.repeat(200)}`) });
      const singleExt = (await messageRow(single)).externalId as string;
      const longExt = (await messageRow(long)).externalId as string;
      expect(longExt).to.match(/^-?\d+:\d+,\d+$/);
      const before = await messagesOf();
      for (const messageId of [Number(singleExt.split(':')[1]), Number(longExt.split(',')[1])]) {
        const edit = messageUpdate(user, { message_id: messageId, text: 'Pix para a conta 123 do golpista', edit_date: Math.floor(Date.now() / 1000) }, 'edited_message');
        expect((await deliverTelegramUpdate(api, hookUrl(), edit, secret)).status).to.equal(200);
      }
      const after = await messagesOf();
      expect(after.map((r) => [r.id, r.text, r.extraData?.edited ?? null])).to.deep.equal(before.map((r) => [r.id, r.text, r.extraData?.edited ?? null]));
      expect(after.map((r) => r.text).join('\n')).to.not.include('golpista');
    });
  });

  describe('agent replies', () => {
    it('sendMessage with the text; a quoted reply carries reply_parameters; the external id is chat:message', async () => {
      const id = await conversation();
      const [quoted] = await messagesOf();
      const sentId = await reply({ id, content: delta('Bom dia!'), replyTo: quoted.id });
      const [call] = telegram.callsOf('sendMessage');
      expect(call.token).to.equal(botToken);
      expect(call.params).to.deep.include({ chat_id: String(user.id), text: 'Bom dia!' });
      expect(call.params.reply_parameters).to.deep.include({ message_id: 1 });
      const result = call.result as { message_id: number };
      expect(await messageRow(sentId)).to.include({ externalId: `${user.id}:${result.message_id}`, status: 2 });
    });

    it('files go as sendPhoto, sendVoice and sendDocument (multipart, with their names)', async () => {
      const id = await conversation();
      const files = [
        { key: unique('tg-foto'), fileName: 'foto.jpg', mime: 'image/jpeg' },
        { key: unique('tg-audio'), fileName: 'audio.ogg', mime: 'audio/ogg' },
        { key: unique('tg-doc'), fileName: 'proposta.pdf', mime: 'application/pdf' },
      ];
      for (const f of files) {
        await createStorage(api.config).put(f.key, Readable.from(Buffer.from(f.fileName)));
        await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: f.key, fileName: f.fileName, mime: f.mime, size: f.fileName.length });
      }
      await reply({ id, content: files.map((f) => ({ file: { ...f, size: f.fileName.length } })) });
      const sends = telegram.calls.filter((c) => c.method.startsWith('send'));
      expect(sends.map((c) => [c.method, c.file?.field, c.file?.name])).to.deep.equal([
        ['sendPhoto', 'photo', 'foto.jpg'],
        ['sendVoice', 'voice', 'audio.ogg'],
        ['sendDocument', 'document', 'proposta.pdf'],
      ]);
      expect(sends.map((c) => c.params.chat_id)).to.deep.equal(Array(3).fill(String(user.id)));
    });

    it('what sendPhoto and sendVoice do not take (a photo over 10 MB, audio other than OGG/MP3/M4A) goes by sendDocument', async () => {
      const id = await conversation();
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 1);
      const files = [
        { key: unique('tg-foto-grande'), fileName: 'foto-grande.jpg', mime: 'image/jpeg', bytes: big },
        { key: unique('tg-wav'), fileName: 'gravacao.wav', mime: 'audio/wav', bytes: Buffer.from('RIFF....WAVE') },
        { key: unique('tg-mp3'), fileName: 'musica.mp3', mime: 'audio/mpeg', bytes: Buffer.from('ID3 mp3') },
      ];
      for (const f of files) {
        await createStorage(api.config).put(f.key, Readable.from(f.bytes));
        await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: f.key, fileName: f.fileName, mime: f.mime, size: f.bytes.length });
      }
      await reply({ id, content: files.map(({ bytes, ...f }) => ({ file: { ...f, size: bytes.length } })) });
      const sends = telegram.calls.filter((c) => c.method.startsWith('send'));
      expect(sends.map((c) => [c.method, c.file?.name, c.file?.size])).to.deep.equal([
        ['sendDocument', 'foto-grande.jpg', big.length],
        ['sendDocument', 'gravacao.wav', 12],
        ['sendVoice', 'musica.mp3', 7],
      ]);
    });

    it('a text longer than sendMessage takes (4096) goes as several messages in order, none cut inside a character', async () => {
      const id = await conversation();
      const text = `${'a'.repeat(4095)}😀${'b'.repeat(5000)}`;
      const sentId = await reply({ id, content: delta(text) });
      const sends = telegram.callsOf('sendMessage');
      // 4095 + 2 (the emoji's surrogate pair) does not fit: the emoji opens the second piece.
      expect(sends.map((c) => (c.params.text as string).length)).to.deep.equal([4095, 4096, 906]);
      expect(sends[1].params.text as string).to.match(/^😀b/);
      expect(sends.map((c) => c.params.text).join('')).to.equal(text);
      expect((await messageRow(sentId)).externalId).to.equal(`${user.id}:${sends.map((c) => (c.result as { message_id: number }).message_id).join(',')}`);
    });

    it('deleting a message that went out as several Telegram messages (files, long text) deletes every one of them', async () => {
      const id = await conversation();
      const files = [
        { key: unique('tg-del-foto'), fileName: 'foto.jpg', mime: 'image/jpeg' },
        { key: unique('tg-del-doc'), fileName: 'proposta.pdf', mime: 'application/pdf' },
      ];
      for (const f of files) {
        await createStorage(api.config).put(f.key, Readable.from(Buffer.from(f.fileName)));
        await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: f.key, fileName: f.fileName, mime: f.mime, size: f.fileName.length });
      }
      const withFiles = await reply({ id, content: files.map((f) => ({ file: { ...f, size: f.fileName.length } })) });
      const longText = await reply({ id, content: delta('x'.repeat(5000)) });
      const sent = telegram.calls.filter((c) => c.method.startsWith('send')).map((c) => (c.result as { message_id: number }).message_id);
      expect(sent).to.have.length(4);
      // The customer quoting any piece quotes the agent's message.
      await deliver({ text: 'sobre o segundo arquivo', reply_to_message: { message_id: sent[1], chat: { id: user.id, type: 'private' }, date: 1 } });
      expect((await messagesOf()).at(-1)).to.include({ text: 'sobre o segundo arquivo', replyToId: withFiles });
      for (const messageId of [withFiles, longText]) {
        const del = await api.request('DELETE', `/api/inbox/messages/${messageId}`, { token: owner.token });
        expect(del.status, JSON.stringify(del.body)).to.equal(200);
      }
      expect(telegram.callsOf('deleteMessage').map((c) => c.params)).to.deep.equal(sent.map((messageId) => ({ chat_id: String(user.id), message_id: messageId })));
    });

    it('a message in several pieces refused half-way (429 on the second file) goes on from there: no piece reaches the customer twice', async () => {
      const id = await conversation();
      const files = [
        { key: unique('tg-meio-foto'), fileName: 'foto.jpg', mime: 'image/jpeg' },
        { key: unique('tg-meio-doc'), fileName: 'proposta.pdf', mime: 'application/pdf' },
      ];
      for (const f of files) {
        await createStorage(api.config).put(f.key, Readable.from(Buffer.from(f.fileName)));
        await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: f.key, fileName: f.fileName, mime: f.mime, size: f.fileName.length });
      }
      telegram.nextSendErrors.push(null, TELEGRAM_ERRORS.tooManyRequests(1));
      telegram.sendAttempts.length = 0;
      const sentId = await reply({ id, content: files.map((f) => ({ file: { ...f, size: f.fileName.length } })) });
      expect(telegram.sendAttempts.map((a) => a.method)).to.deep.equal(['sendPhoto', 'sendDocument', 'sendDocument']);
      const sends = telegram.calls.filter((c) => c.method.startsWith('send'));
      expect(sends.map((c) => c.method)).to.deep.equal(['sendPhoto', 'sendDocument']);
      expect((await messageRow(sentId)).externalId).to.equal(`${user.id}:${sends.map((c) => (c.result as { message_id: number }).message_id).join(',')}`);
    });

    it('a 429 is retried after retry_after and the message goes out exactly once', async () => {
      const id = await conversation();
      telegram.nextSendErrors.push(TELEGRAM_ERRORS.tooManyRequests(3));
      telegram.sendAttempts.length = 0;
      const sentId = await reply({ id, content: delta('Depois do limite') });
      // The workflow's own backoff starts at 100 ms here: the second attempt waited for retry_after.
      const [first, second] = telegram.sendAttempts;
      expect(telegram.sendAttempts).to.have.length(2);
      expect(second.at - first.at, 'gap').to.be.at.least(2_900);
      expect(telegram.callsOf('sendMessage')).to.have.length(1);
      expect((await messageRow(sentId)).deliveryState).to.equal('sent');
    });

    it('a bot blocked by the user (403) fails the message with the reason, no retry, channel still connected', async () => {
      const id = await conversation();
      telegram.blockedChats.add(String(user.id));
      const sentId = await reply({ id, content: delta('Oi') }, 'failed');
      expect((await messageRow(sentId)).deliveryError).to.include('bloqueou o bot');
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('connected');
    });

    it('a revoked token (401) fails the message and disconnects the line with channel.status', async () => {
      const id = await conversation();
      telegram.revokeToken(botToken);
      const events: { topic: string; event: string; data: unknown }[] = [];
      const publish = api.deps.publisher.publish.bind(api.deps.publisher);
      const spy = { ...api.deps.publisher, publish: async <T>(topic: string, event: string, data: T) => (events.push({ topic, event, data }), publish(topic, event, data)) };
      let sentId = 0;
      await withWorker(async () => {
        sentId = await postAgentMessage(api, owner, { id, content: delta('Oi') });
        await untilDeliveryState(api, sentId, 'failed');
      }, spy);
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
      expect(events.find((e) => e.event === 'channel.status')).to.deep.equal({ topic: `ws/${ws.id}/all`, event: 'channel.status', data: { id: line.id, status: 'disconnected', statusReason: 'token_revoked' } });
      expect((await messageRow(sentId)).deliveryError).to.include('token do bot');
    });

    it('a 404 from the Bot API (the bot no longer exists) also fails the message once and disconnects the line', async () => {
      const id = await conversation();
      telegram.nextSendErrors.push(TELEGRAM_ERRORS.notFound);
      telegram.sendAttempts.length = 0;
      const sentId = await reply({ id, content: delta('Oi') }, 'failed');
      expect(telegram.sendAttempts).to.have.length(1);
      expect((await messageRow(sentId)).deliveryError).to.include('token do bot');
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
    });

    it('deleting an agent message calls deleteMessage; typing sends sendChatAction typing', async () => {
      const id = await conversation();
      const sentId = await reply({ id, content: delta('apagar') });
      const ext = (await messageRow(sentId)).externalId as string;
      const del = await api.request('DELETE', `/api/inbox/messages/${sentId}`, { token: owner.token });
      expect(del.status, JSON.stringify(del.body)).to.equal(200);
      expect(telegram.callsOf('deleteMessage').map((c) => c.params)).to.deep.equal([{ chat_id: String(user.id), message_id: Number(ext.split(':')[1]) }]);
      const typing = await api.request('POST', '/api/integrations/composing', { token: owner.token, body: { customerPlatformId: id } });
      expect(typing.status, JSON.stringify(typing.body)).to.be.oneOf([200, 204]);
      await until(async () => telegram.callsOf('sendChatAction').length === 1, 5_000);
      expect(telegram.callsOf('sendChatAction')[0].params).to.deep.equal({ chat_id: String(user.id), action: 'typing' });
    });
  });
});
