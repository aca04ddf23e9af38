import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { instagramBatch, messageEvent, MetaMessagingFake, pageBatch, postMetaWebhook, type FakePage } from '../fakes/metaMessaging';
import { prepareWorker, until, withChannelWorker, type WorkerSetup } from '../channels/helpers';
import { connectInstagram, connectPage, metaConfig } from '../channels/meta/support';
import { logIn } from './support';

const HOUR = 3600_000;

/**
 * The composer on a Messenger/Instagram conversation knows Meta's 24-hour window before the agent writes
 * (issue 14): closed → the reply box is disabled with why, private notes still go, and the box comes back
 * live when the customer writes; with the Human Agent feature past 24 h → a hint until when replies go with
 * the HUMAN_AGENT tag, and the reply reaches the Send API with it.
 */
describe('e2e: Messenger/Instagram composer outside the 24-hour window', function () {
  this.timeout(150_000);
  const fake = new MetaMessagingFake();
  let worker: WorkerSetup;

  before(async () => {
    await fake.start();
    worker = await prepareWorker();
  });
  after(async () => {
    await worker?.connection.close();
    await fake.stop();
  });

  /** One app per test on the Graph fake, with or without the Human Agent feature, and what the tests share. */
  function frame(humanAgentTag: boolean) {
    const s = {} as { api: TestApi; page: Page; owner: TestOperator; fbPage: FakePage };
    useAppPage(({ api, page }) => Object.assign(s, { api, page }), () => ({ ...metaConfig(fake), metaHumanAgentTag: humanAgentTag, temporalTaskQueue: unique('meta-window-e2e') }));
    beforeEach(async () => {
      const ws = await makeWorkspace(s.api.deps.knex);
      s.owner = await makeOperator(s.api.deps.knex, s.api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
      s.fbPage = fake.addPage({ name: unique('Doceria') }, { username: `doceria${Date.now()}` });
      fake.sent.length = 0;
    });
    const composer = () => s.page.getByRole('combobox', { name: /Responder|Nota privada/ });
    const log = () => s.page.getByRole('log', { name: 'Mensagens da conversa' });
    const notice = () => s.page.getByTestId('meta-window');
    /** The customer writes (a signed webhook batch); answers the conversation id once the message is stored. */
    async function customerWrites(channelId: number, payload: unknown, text: string): Promise<number> {
      expect((await postMetaWebhook(`${s.api.url}/api/hooks/meta`, payload, fake.appSecret)).status).to.equal(200);
      let id = 0;
      await until(async () => {
        const row = await s.api.deps.knex('messages').where({ channelId, sender: 'customer', text }).first();
        id = row?.customerPlatformId ?? 0;
        return id > 0;
      });
      return id;
    }
    const messengerWrites = (channelId: number, psid: string, text: string) =>
      customerWrites(channelId, pageBatch([{ pageId: s.fbPage.id, messaging: [messageEvent(psid, s.fbPage.id, { text })] }]), text);
    /** Time-travel: the customer's messages were written `hours` ago. */
    const age = (conversationId: number, hours: number) =>
      s.api.deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).update({ createdAt: new Date(Date.now() - hours * HOUR) });
    return { s, composer, log, notice, customerWrites, messengerWrites, age };
  }
  /** A new person on the fake, with the profile Meta answers for them (name and picture). */
  const newPsid = (profile: Record<string, string> = { first_name: 'Rita', last_name: 'Cliente', name: 'Rita Cliente', username: 'rita.cliente' }) => {
    const id = `${Date.now()}${Math.floor(Math.random() * 100_000)}`;
    fake.profiles.set(id, profile);
    return id;
  };

  describe('without the Human Agent feature', () => {
    const { s, composer, log, notice, customerWrites, messengerWrites, age } = frame(false);

    it('closed window: the reply box is disabled with why, a private note still goes, and the customer writing re-opens it live', async () => {
      const fb = await connectPage(s.api, s.owner, s.fbPage);
      const psid = newPsid();
      const id = await messengerWrites(fb.id, psid, 'Vocês fazem bolo de pote?');
      await age(id, 25);

      await logIn(s.page, s.owner);
      await s.page.goto(`/inbox/all/${id}`);
      await log().getByText('Vocês fazem bolo de pote?').waitFor();
      await notice().getByText(/^A janela de 24 horas do Messenger fechou: o cliente precisa escrever de novo para você responder\./).waitFor();
      expect(await notice().textContent()).to.include('Notas privadas continuam disponíveis.');
      expect(await composer().isDisabled()).to.equal(true);
      expect(await composer().getAttribute('aria-describedby')).to.equal('composer-window-help');
      expect(await s.page.getByRole('button', { name: 'Enviar arquivo' }).isDisabled()).to.equal(true);

      // A private note is still possible.
      await s.page.getByRole('button', { name: 'Nota privada' }).click();
      expect(await notice().count()).to.equal(0);
      await composer().pressSequentially('Cliente pediu bolo de pote, ver com a cozinha');
      await composer().press('Enter');
      await log().getByText('Cliente pediu bolo de pote, ver com a cozinha').waitFor();
      await s.page.getByRole('button', { name: 'Responder' }).click();
      await notice().waitFor();
      expect(await composer().isDisabled()).to.equal(true);

      // The customer writes again: the reply box opens without reloading.
      expect(await messengerWrites(fb.id, psid, 'Oi de novo!')).to.equal(id);
      await log().getByText('Oi de novo!').waitFor();
      await notice().waitFor({ state: 'detached' });
      await until(async () => !(await composer().isDisabled()), 10_000);
      expect(fake.sent).to.have.length(0);
    });

    it('a window that closes while the conversation is open closes in the composer without reloading', async () => {
      const fb = await connectPage(s.api, s.owner, s.fbPage);
      const id = await messengerWrites(fb.id, newPsid(), 'Quase na hora');
      await logIn(s.page, s.owner);
      // The customer wrote 24 hours ago minus 8 seconds: open as the page loads, closed a few seconds later.
      await s.api.deps.knex('messages').where({ customerPlatformId: id, sender: 'customer' }).update({ createdAt: new Date(Date.now() - 24 * HOUR + 8000) });
      await s.page.goto(`/inbox/all/${id}`);
      await log().getByText('Quase na hora').waitFor();
      expect(await composer().isDisabled()).to.equal(false);
      expect(await notice().count()).to.equal(0);
      await notice().getByText(/^A janela de 24 horas do Messenger fechou/).waitFor({ timeout: 20_000 });
      expect(await composer().isDisabled()).to.equal(true);
    });

    it('an Instagram conversation whose window closed names Instagram', async () => {
      await connectPage(s.api, s.owner, s.fbPage);
      const ig = await connectInstagram(s.api, s.owner, s.fbPage);
      const text = 'Tem na cor azul?';
      const id = await customerWrites(ig.id, instagramBatch([{ accountId: ig.instagramAccountId, messaging: [messageEvent(newPsid(), ig.instagramAccountId, { text })] }]), text);
      await age(id, 30);

      await logIn(s.page, s.owner);
      await s.page.goto(`/inbox/all/${id}`);
      await notice().getByText(/^A janela de 24 horas do Instagram fechou/).waitFor();
      expect(await composer().isDisabled()).to.equal(true);
    });
  });

  describe('with the Human Agent feature (META_HUMAN_AGENT_TAG)', () => {
    const { s, composer, log, notice, messengerWrites, age } = frame(true);

    it('past 24 hours the composer says until when replies go with HUMAN_AGENT, and the reply reaches the Send API with that tag', async () => {
      const fb = await connectPage(s.api, s.owner, s.fbPage);
      const psid = newPsid();
      const id = await messengerWrites(fb.id, psid, 'Meu pedido chegou?');
      await age(id, 30);
      const last = await s.api.deps.knex('messages').where({ customerPlatformId: id, sender: 'customer' }).first();
      const until7Days = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(new Date(last.createdAt).getTime() + 7 * 24 * HOUR));

      await logIn(s.page, s.owner);
      await s.page.goto(`/inbox/all/${id}`);
      await log().getByText('Meu pedido chegou?').waitFor();
      await notice()
        .getByText(`A janela de 24 horas do Messenger fechou: suas respostas vão com a etiqueta de atendimento humano (HUMAN_AGENT) até ${until7Days}.`)
        .waitFor();
      expect(await composer().isDisabled()).to.equal(false);

      await withChannelWorker(s.api, worker, async () => {
        await composer().pressSequentially('Chegou sim, obrigado por esperar!');
        await composer().press('Enter');
        await until(async () => fake.sent.some((m) => m.body.message?.text === 'Chegou sim, obrigado por esperar!'), 20_000);
      }, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 4 } });
      expect(fake.sent.find((m) => m.body.message?.text === 'Chegou sim, obrigado por esperar!')!.body).to.deep.include({ messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' });
    });
  });
});
