import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { inboundMessage, makeChannel, makeConversation, type TestChannel } from '../inbox/factories';
import { PNG_1x1, upload } from '../assets/helpers';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { logIn } from './support';

/** Issue 11 §4: the contact panel follows the conversation's live events like the list and the header do. */
describe('e2e: the contact panel follows live events', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  let admin: TestOperator;
  let channel: TestChannel;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Alice Admin' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site' });
  });

  const protocolOf = async (callId: number): Promise<number> => (await api.deps.knex('calls').where({ id: callId }).first('protocol')).protocol as number;

  it("after 'Resolver' the channel line says finished; when the visitor writes again it shows the new protocol, open, and the history and media follow", async () => {
    const conversation = await makeConversation(api.deps, channel, { name: 'Paula Painel' });
    const first = await protocolOf(conversation.callId);
    await logIn(page, { email: admin.email, password: admin.password });
    await page.goto(`/inbox/all/${conversation.conversationId}`);
    const panel = page.getByTestId('contact-panel');
    await panel.getByRole('heading', { name: 'Paula Painel' }).waitFor();
    const channelLine = panel.getByTestId('contact-channel').filter({ hasText: 'Chat do site' });
    await channelLine.getByText(`Protocolo ${first} · Em aberto`).waitFor();
    const historySection = panel.getByRole('button', { name: 'Histórico' });
    await historySection.click();
    const mediaSection = panel.getByRole('button', { name: 'Mídia' });
    await mediaSection.click();

    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByTestId('resolved-banner').waitFor();
    await channelLine.getByText(`Protocolo ${first} · Finalizado`).waitFor();
    await panel.getByTestId('contact-call').filter({ hasText: `Protocolo ${first}` }).getByText(/^Fim: /).waitFor();

    // The visitor writes again (a live event only): a new call with a new protocol, in the header and the panel.
    const again = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: conversation.visitor }, content: [{ insert: 'Voltei!\n' }] }));
    const second = await protocolOf(again.callId);
    expect(second).to.not.equal(first);
    await page.getByTestId('conversation').locator('header').getByText(`Protocolo ${second}`).waitFor();
    await channelLine.getByText(`Protocolo ${second} · Em aberto`).waitFor();
    await panel.getByTestId('contact-call').filter({ hasText: `Protocolo ${second}` }).waitFor();
    expect(await panel.getByTestId('contact-call').count()).to.equal(2);

    // A file in the conversation shows in the open media grid without reopening the panel.
    const uploaded = await upload(api, admin.token, [{ name: 'nota-fiscal.png', bytes: PNG_1x1, type: 'image/png' }]);
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
    await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: conversation.visitor }, content: uploaded.body.data.map((f: object) => ({ file: f })) }));
    await panel.getByTestId('contact-media').getByRole('img', { name: 'nota-fiscal.png' }).waitFor();
  });
});
