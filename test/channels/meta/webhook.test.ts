import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { instagramBatch, messageEvent, MetaMessagingFake, newMid, pageBatch, postMetaWebhook, type FakePage } from '../../fakes/metaMessaging';
import { makeOwner, until } from '../helpers';
import { clearProfileCache } from '../../../api/channels/meta/profile';
import { STORAGE_BUDGETS } from '../../../api/assets/storageBudgets';
import { connectInstagram, connectNewPage, connectPage, expectOurCopy, metaApiHooks, VERIFY_TOKEN, type ConnectedPage } from './support';

describe('Meta webhook /api/hooks/meta: Messenger and Instagram events into the inbox', function () {
  this.timeout(60_000);
  const fake = new MetaMessagingFake();
  let api: TestApi;
  let owner: TestOperator;
  let page: FakePage;
  let fb: ConnectedPage;
  let psid: string;
  let picture: string;

  metaApiHooks(fake, (a) => {
    api = a;
  });
  beforeEach(async () => {
    ({ owner } = await makeOwner(api));
    ({ page, fb, psid } = await connectNewPage(api, owner, fake));
    picture = fake.addPicture();
    fake.profiles.set(psid, { first_name: 'Maria', last_name: 'Cliente', profile_pic: picture, name: 'Maria Cliente', username: 'maria' });
  });

  const hook = () => `${api.url}/api/hooks/meta`;
  const post = (payload: unknown) => postMetaWebhook(hook(), payload, fake.appSecret);
  const messagesOf = (channelId: number) => api.deps.knex('messages').where({ channelId }).orderBy('id');
  const untilCount = (channelId: number, n: number) => until(async () => (await messagesOf(channelId)).length === n);
  /** Every stored batch has been processed. */
  const settled = () => until(async () => (await api.deps.knex('hook_events').whereNull('processed_at')).length === 0);
  const fromCustomer = (message: Record<string, unknown>) => pageBatch([{ pageId: page.id, messaging: [messageEvent(psid, page.id, message)] }]);

  describe('verification and signatures', () => {
    it('the handshake echoes hub.challenge for META_VERIFY_TOKEN and answers 403 otherwise', async () => {
      const ok = await fetch(`${hook()}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.equal('1158201444');
      expect((await fetch(`${hook()}?hub.mode=subscribe&hub.verify_token=errado&hub.challenge=1`)).status).to.equal(403);
    });

    it('a forged, foreign or missing X-Hub-Signature-256 answers 401 and stores nothing', async () => {
      const mid = newMid();
      const payload = fromCustomer({ mid, text: 'forjada' });
      expect((await postMetaWebhook(hook(), payload, null)).status).to.equal(401);
      expect((await postMetaWebhook(hook(), payload, 'outro-segredo')).status).to.equal(401);
      expect((await postMetaWebhook(hook(), payload, null, 'sha256=zz')).status).to.equal(401);
      expect((await postMetaWebhook(hook(), payload, null, `sha256=${'0'.repeat(64)}`)).status).to.equal(401);
      const stored = await api.deps.knex('hook_events').whereRaw('payload::text LIKE ?', [`%${mid}%`]);
      expect(stored).to.have.length(0);
      expect(await messagesOf(fb.id)).to.have.length(0);
    });

    it('the signature is checked over the raw bytes before parsing: a signed body that is not JSON is 400, an unsigned one 401', async () => {
      const { hubSignature } = await import('../../fakes/metaMessaging');
      const unsigned = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' }, body: '{nope' });
      expect(unsigned.status).to.equal(401);
      const signed = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature('{nope', fake.appSecret) }, body: '{nope' });
      expect(signed.status).to.equal(400);
    });
  });

  describe('routing', () => {
    it('a batch with two pages of two workspaces lands each in its own workspace only; an unknown page is dropped', async () => {
      const { ws: ws2, owner: owner2 } = await makeOwner(api);
      const page2 = fake.addPage({ name: unique('Outra') });
      const fb2 = await connectPage(api, owner2, page2);
      const psid2 = `${psid}9`;
      const batch = pageBatch([
        { pageId: page.id, messaging: [messageEvent(psid, page.id, { text: 'para a loja 1' })] },
        { pageId: page2.id, messaging: [messageEvent(psid2, page2.id, { text: 'para a loja 2' })] },
        { pageId: '424242424242', messaging: [messageEvent(psid, '424242424242', { text: 'ninguém conectou' })] },
      ]);
      expect((await post(batch)).status).to.equal(200);
      await untilCount(fb.id, 1);
      await untilCount(fb2.id, 1);
      const [one] = await messagesOf(fb.id);
      const [two] = await messagesOf(fb2.id);
      expect(one.text).to.equal('para a loja 1');
      expect(two).to.include({ text: 'para a loja 2', workspaceId: ws2.id });
      expect(one.workspaceId).to.not.equal(ws2.id);
      expect(await api.deps.knex('messages').where({ text: 'ninguém conectou' })).to.have.length(0);
    });

    it('answers 200 before processing: a slow attachment download does not hold the answer', async () => {
      const url = fake.addAttachment(Buffer.from('devagar'), 'image/jpeg');
      const mid = newMid();
      let release!: () => void;
      fake.cdnHold = new Promise((r) => (release = r));
      try {
        // The download is held until the answer came: answering after it would never come (the test's timeout).
        expect((await post(fromCustomer({ mid, attachments: [{ type: 'image', payload: { url } }] }))).status).to.equal(200);
        expect(await messagesOf(fb.id)).to.have.length(0);
        const [batch] = await api.deps.knex('hook_events').whereRaw('payload::text LIKE ?', [`%${mid}%`]);
        expect(batch).to.include({ object: 'page', processedAt: null });
        release();
        await untilCount(fb.id, 1);
        await until(async () => (await api.deps.knex('hook_events').where({ id: batch.id }).first()).processedAt !== null);
        expect((await messagesOf(fb.id))[0]).to.include({ externalId: mid, sender: 'customer', isMedia: true });
      } finally {
        release();
        fake.cdnHold = undefined;
      }
    });

    it('a batch whose processing never finished is processed by the sweep', async () => {
      const { sweepStoredHooks } = await import('../../../api/channels/hooks/store');
      const mid = newMid();
      await api.deps.knex('hook_events').insert({ object: 'page', payload: JSON.stringify(fromCustomer({ mid, text: 'ficou para trás' })) });
      await sweepStoredHooks(api.deps);
      expect((await messagesOf(fb.id)).map((m) => m.externalId)).to.include(mid);
    });
    it('processed batches are dropped after a week, the others kept', async () => {
      const { purgeProcessedHooks } = await import('../../../api/channels/hooks/store');
      const rows = await api.deps.knex('hook_events')
        .insert([
          { object: 'page', payload: '{}', processedAt: new Date(Date.now() - 8 * 86_400_000) },
          { object: 'page', payload: '{}', processedAt: new Date(Date.now() - 86_400_000) },
          { object: 'page', payload: '{}', createdAt: new Date(Date.now() - 8 * 86_400_000), claimedUntil: new Date(Date.now() + 3_600_000) },
        ])
        .returning('id');
      try {
        await purgeProcessedHooks(api.deps);
        const left = (await api.deps.knex('hook_events').whereIn('id', rows.map((r: { id: number }) => r.id)).orderBy('id')).map((r) => r.id);
        expect(left).to.deep.equal([rows[1].id, rows[2].id]);
      } finally {
        // The unprocessed one would keep settled() waiting in later tests.
        await api.deps.knex('hook_events').where({ id: rows[2].id }).delete();
      }
    });
  });

  describe('messages', () => {
    it('the customer’s name and picture come from the Graph API, looked up once and cached; the picture is our copy', async () => {
      clearProfileCache();
      await post(fromCustomer({ text: 'Olá' }));
      await untilCount(fb.id, 1);
      await post(fromCustomer({ text: 'Tudo bem?' }));
      await untilCount(fb.id, 2);
      const [m] = await messagesOf(fb.id);
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      expect(cp.externalId).to.equal(psid);
      const customer = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      expect(customer).to.include({ name: 'Maria Cliente' });
      await expectOurCopy(api, customer.avatar, picture, customer.workspaceId);
      expect(fake.profileLookups.filter((id) => id === psid)).to.have.length(1);
    });

    it('a changed name and picture replace the stored ones when the cache is refreshed', async () => {
      clearProfileCache();
      await post(fromCustomer({ text: 'Oi' }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      const before = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      const newPicture = fake.addPicture();
      fake.profiles.set(psid, { first_name: 'Maria', last_name: 'Souza', profile_pic: newPicture });
      clearProfileCache();
      await post(fromCustomer({ text: 'De novo' }));
      await untilCount(fb.id, 2);
      const after = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      expect(after).to.include({ name: 'Maria Souza' });
      expect(after.avatar).to.not.equal(before.avatar);
      await expectOurCopy(api, after.avatar, newPicture, after.workspaceId);
    });

    it('the same picture the next day is not copied again (same URL, no new file)', async () => {
      clearProfileCache();
      await post(fromCustomer({ text: 'Primeiro dia' }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      const first = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      const files = await api.deps.knex('stored_files').where({ workspaceId: first.workspaceId }).count({ n: '*' }).first();
      // Meta signs its CDN links anew: another URL, the same bytes.
      fake.profiles.set(psid, { first_name: 'Maria', last_name: 'Cliente', profile_pic: fake.addPicture(undefined, fake.cdnBytes(picture)) });
      clearProfileCache();
      await post(fromCustomer({ text: 'Segundo dia' }));
      await untilCount(fb.id, 2);
      const again = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      expect(again.avatar).to.equal(first.avatar);
      expect(await api.deps.knex('stored_files').where({ workspaceId: first.workspaceId }).count({ n: '*' }).first()).to.deep.equal(files);
    });

    it('a picture that cannot be copied (missing, not an image, too big) leaves the avatar empty; the name still comes', async () => {
      const bad = [`${fake.url}/cdn/nao-existe.png`, fake.addAttachment(Buffer.from('<html>oi</html>'), 'image/png'), fake.addAttachment(Buffer.concat([fake.cdnBytes(picture)!, Buffer.alloc(1024 * 1024)]), 'image/png')];
      for (const [i, url] of bad.entries()) {
        const who = `${psid}${i}9`;
        fake.profiles.set(who, { first_name: 'Sem', last_name: `Foto ${i}`, profile_pic: url });
        await post(pageBatch([{ pageId: page.id, messaging: [messageEvent(who, page.id, { text: `sem foto ${i}` })] }]));
      }
      await untilCount(fb.id, bad.length);
      const customers = await api.deps.knex('customers').join('customer_platforms', 'customer_platforms.customer_id', 'customers.id').where('customer_platforms.channel_id', fb.id).select('customers.name', 'customers.avatar').orderBy('customers.name');
      expect(customers).to.deep.equal(bad.map((_, i) => ({ name: `Sem Foto ${i}`, avatar: null })));
    });

    it('a Messenger image is downloaded into our storage; a like sticker too', async () => {
      const bytes = Buffer.from(`jpeg-${Math.random()}`);
      const url = fake.addAttachment(bytes, 'image/jpeg');
      const like = fake.addAttachment(Buffer.from('like'), 'image/png');
      await post(fromCustomer({ attachments: [{ type: 'image', payload: { url } }] }));
      await untilCount(fb.id, 1);
      await post(fromCustomer({ sticker_id: 369239263222822, attachments: [{ type: 'image', payload: { url: like, sticker_id: 369239263222822 } }] }));
      await untilCount(fb.id, 2);
      const [img, sticker] = await messagesOf(fb.id);
      expect(img.isMedia).to.equal(true);
      const file = img.content[0].file;
      expect(file).to.include({ mime: 'image/jpeg', size: bytes.length });
      expect(await api.deps.knex('stored_files').where({ key: file.key }).first()).to.include({ channelId: fb.id });
      expect(sticker.content[0].file.fileName).to.equal('sticker-369239263222822.png');
    });

    it('a Messenger sticker in today’s webhook format (type sticker) is kept once, also while Meta sent it as image and sticker both', async () => {
      // Messenger changelog, 2026-06-01: stickers come as a `sticker` attachment with `sticker_id`; until
      // 2026-08-30 the old `image` attachment came beside it, after that only the `sticker` one.
      const stickerId = 126361870881943;
      const now = fake.addAttachment(Buffer.from(`sticker-${Math.random()}`), 'image/png');
      await post(fromCustomer({ attachments: [{ type: 'sticker', payload: { url: now, sticker_id: stickerId } }] }));
      await untilCount(fb.id, 1);
      const both = fake.addAttachment(Buffer.from(`sticker-${Math.random()}`), 'image/png');
      await post(fromCustomer({ sticker_id: stickerId, attachments: [{ type: 'image', payload: { url: both, sticker_id: stickerId } }, { type: 'sticker', payload: { url: both, sticker_id: stickerId } }] }));
      await untilCount(fb.id, 2);
      await settled();
      for (const m of await messagesOf(fb.id)) {
        expect(m.content.map((c: { file?: { fileName: string } }) => c.file?.fileName)).to.deep.equal([`sticker-${stickerId}.png`]);
      }
      expect(await api.deps.knex('stored_files').where({ channelId: fb.id })).to.have.length(2);
    });

    it('a shared Facebook post (type post) shows as a link with its title, not downloaded as a file', async () => {
      // Messenger webhook reference: attachments of type `post` / `ig_post` carry the post's url (and title).
      const url = fake.addAttachment(Buffer.from('<html>post</html>'), 'text/html');
      await post(fromCustomer({ attachments: [{ type: 'post', payload: { url, title: 'Promoção de Natal' } }] }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      expect(m.text).to.equal(`🔗 Promoção de Natal: ${url}`);
      expect(m.isMedia).to.equal(false);
      expect(await api.deps.knex('stored_files').where({ channelId: fb.id })).to.have.length(0);
    });

    it("a Messenger file past the workspace's storage budget keeps its message, with the note instead of the file", async () => {
      await api.deps.knex('stored_files').insert({ workspaceId: owner.workspaceId, key: unique('full').replace(/[^A-Za-z0-9_-]/g, ''), fileName: 'outro.bin', mime: 'application/octet-stream', size: STORAGE_BUDGETS.workspaceTotal });
      const url = fake.addAttachment(Buffer.from('%PDF-cheio'), 'application/pdf');
      await post(fromCustomer({ attachments: [{ type: 'file', payload: { url } }] }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      expect(m.content[0].file).to.equal(undefined);
      expect(m.text).to.match(/não recebido: o espaço para arquivos deste workspace \(10 GB\) está cheio\.$/);
      expect(await api.deps.knex('stored_files').where({ channelId: fb.id })).to.have.length(0);
    });

    for (const [type, mime] of [['video', 'video/mp4'], ['audio', 'audio/mpeg'], ['file', 'application/pdf']] as const) {
      it(`a Messenger ${type} attachment is stored with its type`, async () => {
        const url = fake.addAttachment(Buffer.from(`${type}-bytes`), mime);
        await post(fromCustomer({ attachments: [{ type, payload: { url } }] }));
        await untilCount(fb.id, 1);
        expect((await messagesOf(fb.id))[0].content[0].file).to.include({ mime });
      });
    }

    it('10 parallel deliveries of one batch store the message once', async () => {
      const payload = fromCustomer({ text: 'uma vez só' });
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(payload)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
      const mid = (payload.entry[0].messaging[0] as { message: { mid: string } }).message.mid;
      await until(async () => (await api.deps.knex('hook_events').whereRaw('payload::text LIKE ?', [`%${mid}%`]).whereNull('processed_at')).length === 0);
      expect(await messagesOf(fb.id)).to.have.length(1);
      expect(await api.deps.knex('customer_platforms').where({ channelId: fb.id })).to.have.length(1);
    });

    it('10 parallel deliveries of one batch with an image keep its file once (no stray copy counts against the storage budget)', async () => {
      const url = fake.addAttachment(Buffer.from(`jpeg-${Math.random()}`), 'image/jpeg');
      const payload = fromCustomer({ attachments: [{ type: 'image', payload: { url } }] });
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(payload)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
      await settled();
      const [message, ...others] = await messagesOf(fb.id);
      expect(others).to.have.length(0);
      const files = await api.deps.knex('stored_files').where({ channelId: fb.id });
      expect(files.map((f: { key: string }) => f.key)).to.deep.equal([message.content[0].file.key]);
    });

    it('an echo of a message typed in Meta’s inbox is an agent message, not a customer one; our own app’s echoes are skipped', async () => {
      await post(fromCustomer({ text: 'Oi' }));
      await untilCount(fb.id, 1);
      const echo = { sender: { id: page.id }, recipient: { id: psid }, timestamp: Date.now(), message: { mid: newMid(), is_echo: true, app_id: 263902037430900, text: 'Respondido pelo Business Suite' } };
      const ours = { sender: { id: page.id }, recipient: { id: psid }, timestamp: Date.now(), message: { mid: newMid(), is_echo: true, app_id: Number(fake.appId), text: 'enviado por nós' } };
      await post(pageBatch([{ pageId: page.id, messaging: [echo, ours] }]));
      await post(pageBatch([{ pageId: page.id, messaging: [echo] }]));
      await untilCount(fb.id, 2);
      await until(async () => (await api.deps.knex('hook_events').whereRaw('payload::text LIKE ?', [`%${echo.message.mid}%`]).whereNull('processed_at')).length === 0);
      const all = await messagesOf(fb.id);
      expect(all).to.have.length(2);
      expect(all[1]).to.include({ sender: 'operator', operatorId: null, text: 'Respondido pelo Business Suite', externalId: echo.message.mid });
      expect(await api.deps.knex('customer_platforms').where({ channelId: fb.id })).to.have.length(1);
    });

    it('an echo without our app id while one of our sends is still pending is taken for that send’s echo and not stored', async () => {
      await post(fromCustomer({ text: 'Oi' }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      await api.deps.knex('messages').insert({ workspaceId: m.workspaceId, customerPlatformId: m.customerPlatformId, callId: m.callId, content: '[]', text: 'a caminho', sender: 'operator', status: 1, deliveryState: 'pending' });
      const echo = { sender: { id: page.id }, recipient: { id: psid }, timestamp: Date.now(), message: { mid: newMid(), is_echo: true, text: 'a caminho' } };
      await post(pageBatch([{ pageId: page.id, messaging: [echo] }]));
      await settled();
      expect((await messagesOf(fb.id)).map((r) => r.externalId)).to.not.include(echo.message.mid);
    });

    it('delivery and read receipts move our messages forward and never back', async () => {
      await post(fromCustomer({ text: 'Oi' }));
      await untilCount(fb.id, 1);
      const [m] = await messagesOf(fb.id);
      const sentAt = new Date(Date.now() - 60_000);
      const mid = newMid();
      const [ours] = await api.deps.knex('messages')
        .insert({ workspaceId: m.workspaceId, customerPlatformId: m.customerPlatformId, callId: m.callId, externalId: mid, content: '[]', text: 'resposta', sender: 'operator', status: 2, createdAt: sentAt })
        .returning('id');
      const row = () => api.deps.knex('messages').where({ id: ours.id }).first();
      const receipt = (extra: Record<string, unknown>) => pageBatch([{ pageId: page.id, messaging: [{ sender: { id: psid }, recipient: { id: page.id }, timestamp: Date.now(), ...extra }] }]);
      await post(receipt({ delivery: { mids: [mid], watermark: sentAt.getTime() } }));
      await until(async () => (await row()).status === 3);
      await post(receipt({ read: { watermark: Date.now() } }));
      await until(async () => (await row()).status === 4);
      await post(receipt({ delivery: { mids: [mid], watermark: Date.now() } }));
      await settled();
      expect((await row()).status).to.equal(4);
    });
  });

  describe('Instagram', () => {
    let ig: { id: number; instagramAccountId: string };
    let igsid: string;
    beforeEach(async () => {
      ig = await connectInstagram(api, owner, page);
      igsid = `${psid}7`;
      fake.profiles.set(igsid, { name: 'João IG', username: 'joao.ig', profile_pic: fake.addPicture() });
    });
    const fromIg = (message: Record<string, unknown>) => instagramBatch([{ accountId: ig.instagramAccountId, messaging: [messageEvent(igsid, ig.instagramAccountId, message)] }]);

    it('a direct message lands in the Instagram channel with the person’s Instagram name', async () => {
      await post(fromIg({ text: 'Oi pelo direct' }));
      await untilCount(ig.id, 1);
      const [m] = await messagesOf(ig.id);
      expect(m).to.include({ text: 'Oi pelo direct', sender: 'customer' });
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      expect(await api.deps.knex('customers').where({ id: cp.customerId }).first()).to.include({ name: 'João IG' });
      expect(await messagesOf(fb.id)).to.have.length(0);
    });

    it('a reply to a specific message is stored quoted', async () => {
      const first = newMid();
      await post(fromIg({ mid: first, text: 'primeira' }));
      await untilCount(ig.id, 1);
      await post(fromIg({ text: 'respondendo', reply_to: { mid: first } }));
      await untilCount(ig.id, 2);
      const [a, b] = await messagesOf(ig.id);
      expect(b.replyToId).to.equal(a.id);
    });

    it('a story reply shows a link to the story; a story mention too', async () => {
      await post(fromIg({ text: 'Amei!', reply_to: { story: { url: 'https://lookaside.fbsbx.com/story/1', id: '1790' } } }));
      await untilCount(ig.id, 1);
      await post(fromIg({ attachments: [{ type: 'story_mention', payload: { url: 'https://lookaside.fbsbx.com/story/2' } }] }));
      await untilCount(ig.id, 2);
      const [reply, mention] = await messagesOf(ig.id);
      expect(reply.text).to.include('Resposta ao seu story: https://lookaside.fbsbx.com/story/1').and.include('Amei!');
      expect(reply.extraData.storyReply).to.deep.equal({ id: '1790', url: 'https://lookaside.fbsbx.com/story/1' });
      expect(mention.text).to.include('Mencionou você em um story: https://lookaside.fbsbx.com/story/2');
    });

    it('Instagram images, video and audio are copied into our storage like Messenger’s (Meta’s links expire); a link that no longer answers is a visible note', async () => {
      const bytes = { image: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), video: Buffer.from('....ftypmp42 video'), audio: Buffer.from('ID3 audio') };
      const mimes = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mpeg' };
      for (const type of ['image', 'video', 'audio'] as const) {
        await post(fromIg({ attachments: [{ type, payload: { url: fake.addAttachment(bytes[type], mimes[type]) } }] }));
      }
      await untilCount(ig.id, 3);
      const rows = await messagesOf(ig.id);
      expect(rows.map((m) => m.isMedia)).to.deep.equal([true, true, true]);
      const files = await api.deps.knex('stored_files').where({ channelId: ig.id }).orderBy('id');
      // Three batches, processed each as it comes: compare without order.
      expect(files.map((f) => f.mime).sort()).to.deep.equal(['audio/mpeg', 'image/jpeg', 'video/mp4']);
      for (const m of rows) expect(m.text, 'no Meta link kept').to.not.include(fake.url);
      expect(rows.map((m) => m.content[0].file.key).sort()).to.deep.equal(files.map((f) => f.key).sort());

      // Expired (the CDN answers 404): said so, no file, no link that would not open.
      await post(fromIg({ attachments: [{ type: 'image', payload: { url: `${fake.url}/cdn/expirado` } }] }));
      await untilCount(ig.id, 4);
      const expired = (await messagesOf(ig.id))[3];
      expect(expired.text).to.equal('Mídia não recebida: o link do Instagram expirou ou foi removido.');
      expect(await api.deps.knex('stored_files').where({ channelId: ig.id })).to.have.length(3);
    });

    it('an Instagram image over 16 MB is not copied: the same note as Messenger', async () => {
      const url = fake.addAttachment(Buffer.alloc(16 * 1024 * 1024 + 1, 1), 'image/jpeg');
      await post(fromIg({ attachments: [{ type: 'image', payload: { url } }] }));
      await untilCount(ig.id, 1);
      expect((await messagesOf(ig.id))[0].text).to.equal('Mídia não recebida: o arquivo tem mais de 16 MB.');
      expect(await api.deps.knex('stored_files').where({ channelId: ig.id })).to.have.length(0);
    });

    it('the account’s own echo (sender = the account) is not a customer message; seen (read.mid) marks ours read', async () => {
      await post(fromIg({ text: 'Oi' }));
      await untilCount(ig.id, 1);
      const [m] = await messagesOf(ig.id);
      const mid = newMid();
      const [ours] = await api.deps.knex('messages')
        .insert({ workspaceId: m.workspaceId, customerPlatformId: m.customerPlatformId, callId: m.callId, externalId: mid, content: '[]', text: 'resposta', sender: 'operator', status: 2 })
        .returning('id');
      const echo = { sender: { id: ig.instagramAccountId }, recipient: { id: igsid }, timestamp: Date.now(), message: { mid, is_echo: true, text: 'resposta' } };
      const seen = { sender: { id: igsid }, recipient: { id: ig.instagramAccountId }, timestamp: Date.now(), read: { mid } };
      await post(instagramBatch([{ accountId: ig.instagramAccountId, messaging: [echo, seen] }]));
      await until(async () => (await api.deps.knex('messages').where({ id: ours.id }).first()).status === 4);
      expect(await messagesOf(ig.id)).to.have.length(2);
    });
  });
});
