import { expect } from 'chai';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { startExportWorker } from '../reports/exportSupport';
import { cutOff, describeOwnerPage, logIn } from './support';

const CSV = ['nome;telefone;email;Cidade', 'Rui Importado;(81) 98765-4321;rui@exemplo.com.br;Recife', 'Sem Contato;;;Olinda', 'Lia Campos;;lia@exemplo.com.br;Caruaru'].join('\n');

describeOwnerPage('e2e: the Contacts page', (s) => {
  const nothingCutOff = async (where: string) => expect(await cutOff(s.page), where).to.deep.equal([]);

  it('finds a contact, opens it, edits a property, opens one of its conversations, imports a CSV and exports by e-mail', async () => {
    const { api, page, ws, owner } = s;
    const widget = await makeChannel(api.deps.knex, ws);
    const conv = await receiveInbound(api.deps, inboundMessage(widget, { identity: { externalId: 'lia', name: 'Lia Campos' }, content: [{ insert: 'Oi\n' }] }));
    await receiveInbound(api.deps, inboundMessage(widget, { identity: { externalId: 'caio', name: 'Caio Prado' }, content: [{ insert: 'Olá\n' }] }));
    const lia = await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id');
    await api.deps.knex('customers').where({ id: lia.customerId }).update({ email: 'lia@exemplo.com.br' });

    await logIn(page, owner);
    // The header's 'Contatos': a link on a desktop, an entry of the header's menu on a phone.
    const nav = page.getByRole('navigation', { name: 'Navegação principal' });
    const menuButton = nav.getByRole('button', { name: 'Abrir menu de navegação' });
    if (await menuButton.isVisible()) {
      await menuButton.click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Contatos' }).click();
    } else await nav.getByRole('link', { name: 'Contatos' }).click();
    await page.waitForURL('**/contacts');
    await page.getByRole('heading', { name: 'Contatos' }).waitFor();
    await page.getByTestId('contact-row').nth(1).waitFor();
    await nothingCutOff('list');

    // An 'Até' before the 'De' is told at the field and not asked of the api (no error with a useless retry);
    // setting it right brings the list back.
    await page.getByLabel('De', { exact: true }).fill('2026-11-10');
    await page.getByLabel('Até', { exact: true }).fill('2026-11-01');
    await page.getByText('A data final deve ser igual ou posterior à inicial.').waitFor();
    expect(await page.getByTestId('contact-row').count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Tentar novamente' }).count()).to.equal(0);
    await page.getByLabel('De', { exact: true }).fill('');
    await page.getByLabel('Até', { exact: true }).fill('');
    await page.getByTestId('contact-row').nth(1).waitFor();

    // Search narrows the list; the contact opens on its page.
    await page.getByTestId('contacts-search').fill('lia');
    await page.getByTestId('contacts-count').filter({ hasText: /^1 contato$/ }).waitFor();
    await page.getByTestId('contact-row').filter({ hasText: 'Lia Campos' }).getByText('Lia Campos').click();
    await page.waitForURL(`**/contacts/${lia.customerId}`);
    await page.getByRole('heading', { name: 'Lia Campos' }).waitFor();
    await nothingCutOff('contact page');

    // A property, through the contact panel's own editor.
    const properties = page.getByTestId('contact-properties');
    await properties.getByRole('button', { name: 'Adicionar propriedade' }).click();
    await properties.getByLabel('Nome da propriedade').fill('Plano');
    await properties.getByLabel('Valor').fill('Ouro');
    await properties.getByRole('button', { name: 'Salvar' }).click();
    await properties.getByText('Ouro').waitFor();
    const saved = await api.deps.knex('customer_properties').where({ customerId: lia.customerId, code: 'plano' }).first('value');
    expect(saved?.value).to.equal('Ouro');

    // The conversation opens in the inbox.
    const conversation = page.getByTestId('contact-conversation');
    await conversation.getByText('Em aberto').waitFor();
    await conversation.getByRole('link').click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);

    // Import: the preview shows each row and its problem before anything is written.
    await page.goto('/contacts');
    await page.getByTestId('contacts-import').click();
    await page.getByTestId('contacts-import-file').setInputFiles({ name: 'contatos.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') });
    await page.getByTestId('contacts-import-summary').filter({ hasText: '1 novos, 1 atualizados, 1 ignorados' }).waitFor();
    await page.getByTestId('contacts-import-row').filter({ hasText: 'Informe o telefone ou o e-mail.' }).waitFor();
    expect(await api.deps.knex('customers').where({ workspaceId: ws.id, email: 'rui@exemplo.com.br' })).to.have.length(0);
    await nothingCutOff('import preview');
    await page.getByTestId('contacts-import-submit').click();
    await page.getByText('Importação concluída: 1 novos, 1 atualizados, 1 ignorados.').waitFor();
    const rui = await api.deps.knex('customers').where({ workspaceId: ws.id, phone: '+5581987654321' }).select('name', 'email');
    expect(rui).to.deep.equal([{ name: 'Rui Importado', email: 'rui@exemplo.com.br' }]);
    expect(await api.deps.knex('customers').where({ workspaceId: ws.id }).whereRaw("lower(email) = 'lia@exemplo.com.br'")).to.have.length(1);
    await page.getByTestId('contact-row').filter({ hasText: 'Rui Importado' }).waitFor();

    // Export: the reports' contacts export, mailed to the requester.
    const { worker, running, connection } = await startExportWorker(api, `smtp://127.0.0.1:${api.mailbox.port}`);
    try {
      await page.getByTestId('contacts-export').click();
      await page.getByText(`Relatório será enviado em breve para ${owner.email}`).waitFor();
      const mail = await api.mailbox.waitFor(owner.email, (m) => m.raw.includes('.csv'), 60_000);
      expect(mail.raw).to.match(/filename="?customers-\d{8}-\d{8}\.csv/);
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
    }

    // A conversation started from the contact by e-mail opens in the inbox.
    const mailChannel = await api.request('POST', '/api/integrations/mail', { token: owner.token, body: { description: 'Suporte' } });
    expect(mailChannel.status).to.equal(201);
    await page.goto(`/contacts/${lia.customerId}`);
    await page.getByTestId('contact-start-email').click();
    const dialog = page.getByRole('dialog', { name: 'Nova conversa por e-mail' });
    await dialog.getByLabel('Assunto').fill('Seu pedido');
    await dialog.getByLabel('Mensagem').fill('Olá, Lia! Seu pedido saiu.');
    await nothingCutOff('e-mail dialog');
    await dialog.getByTestId('email-start-send').click();
    await page.waitForURL(/\/inbox\/all\/\d+$/);
    const started = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await api.deps.knex('customer_platforms').where({ id: started }).first('customer_id', 'channel_id')).to.deep.equal({ customerId: lia.customerId, channelId: mailChannel.body.data.id });
  });
});
