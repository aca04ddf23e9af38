import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage, useAppPage, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation, type TestChannel, type TestConversation } from '../inbox/factories';
import { PNG_1x1, upload } from '../assets/helpers';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage } from '../inbox/factories';
import { logIn, switchOn, toast } from './support';

/** Screenshots of every dialog, for a human look (test-results/ is ignored by git). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = path.resolve('test-results/inboxPanels');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

describe('e2e: inbox panels (contact, saved filters, quick phrases, new message)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let browser: BrowserSession;
  let page: Page;
  let ws: TestWorkspace;
  let admin: TestOperator;
  let channel: TestChannel;

  const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });
  const customerOf = async (conversationId: number): Promise<number> =>
    (await api.deps.knex('customer_platforms').where({ id: conversationId }).first('customer_id')).customerId as number;

  async function openInbox(op: TestOperator, path = '/inbox/all'): Promise<void> {
    await logIn(page, { email: op.email, password: op.password });
    if (path !== '/inbox/all') await page.goto(path);
  }

  /** Opens a section of the contact panel (closed ones mount nothing). */
  async function section(name: string): Promise<void> {
    const header = page.getByTestId('contact-panel').getByRole('button', { name });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  }

  useAppPage((s) => ({ api, browser, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Alice Admin' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site' });
  });

  it('a saved filter created with a filter, subscribed in the browser, appears in the sidebar; the browser reorders', async () => {
    await openInbox(admin);
    const sidebar = page.getByRole('navigation', { name: 'Caixas de entrada' });
    await sidebar.getByRole('button', { name: 'Gerenciar filtros' }).click();
    await page.getByRole('menuitem', { name: 'Novo filtro' }).click();

    const editor = dialog('Novo filtro');
    await editor.getByRole('button', { name: 'Salvar' }).click();
    expect(await editor.getByLabel(/^Nome do filtro/).getAttribute('aria-invalid')).to.equal('true');
    await editor.getByLabel(/^Nome do filtro/).fill('Fila sem dono');
    await editor.getByRole('button', { name: 'Cor azul' }).click();
    // SPEC §4: opposing boxes are mutually disabled.
    await editor.getByLabel('Não atribuídas').check();
    expect(await editor.getByLabel('Atribuídas', { exact: true }).isDisabled()).to.equal(true);
    await editor.getByLabel('Abertas').check();
    expect(await editor.getByLabel('Resolvidas').isDisabled()).to.equal(true);
    await editor.getByLabel('Não atribuídas').uncheck();
    expect(await editor.getByLabel('Atribuídas', { exact: true }).isDisabled()).to.equal(false);
    await editor.getByLabel('Não atribuídas').check();
    // SPEC §5: the attribute's value is required once the attribute is set.
    await editor.getByLabel('Atributo do contato').fill('cidade');
    await editor.getByRole('button', { name: 'Salvar' }).click();
    await editor.getByText('Informe o valor do atributo.').waitFor();
    await editor.getByLabel(/^Valor do atributo/).fill('Recife');
    await shot(page, 'segment-editor');
    await editor.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Filtro salvo.');
    await editor.waitFor({ state: 'detached' });

    const [saved] = (await api.request('GET', '/api/inbox/segments', { token: admin.token })).body.data;
    expect(saved).to.include({ name: 'Fila sem dono', icon: '#1d4ed8', isPublic: true, subscribed: false, inbox: 'workspace' });
    expect(saved.filters).to.include({ assigned: false, open: true });
    expect(saved.filters.customerProps).to.deep.equal({ property: 'cidade', value: 'Recife' });
    expect(await sidebar.getByRole('link', { name: /Fila sem dono/ }).count(), 'not subscribed yet').to.equal(0);

    const other = await api.request('POST', '/api/inbox/segments', { token: admin.token, body: { name: 'VIP', icon: '⭐', isPublic: false, inbox: 'me', filters: { starred: true } } });
    expect(other.status).to.equal(201);

    await sidebar.getByRole('button', { name: 'Gerenciar filtros' }).click();
    await page.getByRole('menuitem', { name: 'Ver todos os filtros' }).click();
    const browserDialog = dialog('Filtros salvos');
    await browserDialog.getByTestId('segment-row').nth(1).waitFor();
    await shot(page, 'segment-browser');
    await switchOn(browserDialog.getByRole('switch', { name: 'Mostrar "Fila sem dono" na barra lateral' }));

    // Up/down buttons reorder (PATCH /inbox/segments/sort) for keyboard users; dragging does the same.
    await browserDialog.getByRole('button', { name: 'Mover "VIP" para cima' }).click();
    await browserDialog.getByTestId('segment-row').first().filter({ hasText: 'VIP' }).waitFor();
    await expectOrder(['VIP', 'Fila sem dono']);
    await browserDialog.getByTestId('segment-row').nth(1).dragTo(browserDialog.getByTestId('segment-row').first());
    await browserDialog.getByTestId('segment-row').first().filter({ hasText: 'Fila sem dono' }).waitFor();
    await expectOrder(['Fila sem dono', 'VIP']);

    // Escape closes the browser (the modal hides the page from assistive technology while open).
    await page.keyboard.press('Escape');
    await browserDialog.waitFor({ state: 'detached' });
    await sidebar.getByRole('link', { name: /Fila sem dono/ }).waitFor();
    expect((await api.request('GET', '/api/inbox/segments', { token: admin.token })).body.data.find((s: { name: string }) => s.name === 'Fila sem dono').subscribed).to.equal(true);
    await page.reload();
    await sidebar.getByRole('link', { name: /Fila sem dono/ }).waitFor();

    async function expectOrder(names: string[]): Promise<void> {
      for (let i = 0; i < 50; i++) {
        const rows = (await api.request('GET', '/api/inbox/segments', { token: admin.token })).body.data as { name: string }[];
        if (rows.map((r) => r.name).join() === names.join()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`segments never came in the order ${names.join(', ')}`);
    }
  });

  it('an operator cannot edit or delete a public filter someone else owns, and can subscribe to it', async () => {
    const operator = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Otto Operador' });
    const res = await api.request('POST', '/api/inbox/segments', { token: admin.token, body: { name: 'Da equipe', isPublic: true, inbox: 'workspace', filters: { open: true } } });
    expect(res.status).to.equal(201);
    await openInbox(operator);
    const sidebar = page.getByRole('navigation', { name: 'Caixas de entrada' });
    await sidebar.getByRole('button', { name: 'Gerenciar filtros' }).click();
    await page.getByRole('menuitem', { name: 'Ver todos os filtros' }).click();
    const browserDialog = dialog('Filtros salvos');
    await browserDialog.getByTestId('segment-row').filter({ hasText: 'Da equipe' }).waitFor();
    expect(await browserDialog.getByRole('button', { name: 'Editar "Da equipe"' }).count()).to.equal(0);
    expect(await browserDialog.getByRole('button', { name: 'Excluir "Da equipe"' }).count()).to.equal(0);
    await switchOn(browserDialog.getByRole('switch', { name: 'Mostrar "Da equipe" na barra lateral' }));
    await browserDialog.getByRole('button', { name: 'Fechar' }).click();
    await sidebar.getByRole('link', { name: /Da equipe/ }).waitFor();
  });

  it('quick phrases: the tag is normalised while typing, the phrase is created, edited, then deleted after confirmation', async () => {
    const conversation = await makeConversation(api.deps, channel, { name: 'Bruna Cliente' });
    await openInbox(admin, `/inbox/all/${conversation.conversationId}`);
    const composer = page.getByRole('combobox', { name: /Responder|Nota privada/ });
    await composer.click();
    await composer.pressSequentially('/');
    await page.getByRole('button', { name: 'Gerenciar frases rápidas' }).click();

    const phrases = dialog('Frases rápidas');
    await phrases.getByText('Nenhuma frase rápida ainda.').waitFor();
    await phrases.getByRole('button', { name: 'Nova frase' }).click();
    const form = dialog('Nova frase rápida');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.getByText('A visibilidade é obrigatória.').waitFor();
    // SPEC §5: one leading slash, other slashes removed, spaces become underscores — shown as typed.
    await form.getByLabel(/^Atalho/).pressSequentially('//bom dia/cliente');
    expect(await form.getByLabel(/^Atalho/).inputValue()).to.equal('/bom_diacliente');
    const long = 'Bom dia! Obrigado por falar com a nossa equipe de atendimento, já vamos ajudar.';
    await form.getByLabel(/^Frase/).fill(long);
    await form.getByLabel(/^Pública/).check();
    await shot(page, 'quick-phrase-form');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Frase criada.');

    const row = phrases.getByTestId('quick-phrase-row').filter({ hasText: '/bom_diacliente' });
    await row.waitFor();
    // SPEC §9: the description is truncated at 45 characters.
    expect(await row.getByText(/…$/).textContent()).to.equal(`${long.slice(0, 45)}…`);
    const stored = await api.deps.knex('quick_phrases').where({ workspaceId: ws.id }).first('tag', 'phrase', 'privacy');
    expect(stored).to.deep.equal({ tag: '/bom_diacliente', phrase: long, privacy: 'public' });
    await shot(page, 'quick-phrase-list');

    await phrases.getByLabel('Buscar frase').fill('nada disso');
    await phrases.getByText('Nenhuma frase encontrada.').waitFor();
    await phrases.getByLabel('Buscar frase').fill('obrigado');
    await row.waitFor();

    await row.getByRole('button', { name: 'Editar a frase /bom_diacliente' }).click();
    await dialog('Editar frase rápida').getByLabel(/^Frase/).fill('Bom dia!');
    await dialog('Editar frase rápida').getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Frase atualizada.');
    await row.getByText('Bom dia!', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Excluir a frase /bom_diacliente' }).click();
    const confirm = dialog('Excluir a frase "/bom_diacliente"?');
    await confirm.getByText('Esta ação é permanente e não pode ser desfeita.').waitFor();
    await shot(page, 'quick-phrase-delete');
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Frase excluída.');
    await row.waitFor({ state: 'detached' });
    expect(await api.deps.knex('quick_phrases').where({ workspaceId: ws.id }).select('id')).to.deep.equal([]);
    // Saving inside the dialog never submits the composer it was opened from.
    expect(await api.deps.knex('messages').where({ customerPlatformId: conversation.conversationId, sender: 'operator' }).select('id')).to.deep.equal([]);
  });

  it('contact panel: fixed fields edit in place, a custom property is added and deleted, channels, history and media show', async () => {
    const conversation = await makeConversation(api.deps, channel, { name: 'Carla Cliente' });
    const customerId = await customerOf(conversation.conversationId);
    const uploaded = await upload(api, admin.token, [{ name: 'foto.png', bytes: PNG_1x1, type: 'image/png' }]);
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
    await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: conversation.visitor }, content: uploaded.body.data.map((f: object) => ({ file: f })) }));

    await openInbox(admin, `/inbox/all/${conversation.conversationId}`);
    const panel = page.getByTestId('contact-panel');
    await panel.getByRole('heading', { name: 'Carla Cliente' }).waitFor();

    await panel.getByRole('button', { name: 'Editar E-mail' }).click();
    const email = panel.getByRole('textbox', { name: 'E-mail' });
    await email.fill('nao-e-email');
    await email.press('Enter');
    await panel.getByText('E-mail inválido.').waitFor();
    await email.fill('carla@exemplo.com.br');
    await email.press('Enter');
    await toast(page, 'Contato atualizado');
    await panel.getByTestId('contact-email').filter({ hasText: 'carla@exemplo.com.br' }).waitFor();
    expect((await api.deps.knex('customers').where({ id: customerId }).first('email')).email).to.equal('carla@exemplo.com.br');

    await panel.getByRole('button', { name: 'Adicionar propriedade' }).click();
    await panel.getByRole('button', { name: 'Salvar' }).click();
    await panel.getByText('O nome da propriedade é obrigatório.').waitFor();
    await panel.getByText('O valor da propriedade é obrigatório.').waitFor();
    await panel.getByLabel(/^Nome da propriedade/).fill('Cidade natal');
    await panel.getByLabel(/^Valor/).fill('Recife');
    await panel.getByRole('button', { name: 'Salvar' }).click();
    const property = panel.getByTestId('contact-property').filter({ hasText: 'Cidade natal' });
    await property.getByText('Recife').waitFor();
    const props = await api.deps.knex('customer_properties').where({ customerId }).select('label', 'code', 'value');
    expect(props).to.deep.equal([{ label: 'Cidade natal', code: 'cidadenatal', value: 'Recife' }]);

    await panel.getByTestId('contact-channel').filter({ hasText: 'Chat do site' }).getByText('Conversa atual').waitFor();
    await section('Histórico');
    const protocol = (await api.deps.knex('calls').where({ id: conversation.callId }).first('protocol')).protocol;
    await panel.getByTestId('contact-call').getByText(`Protocolo ${protocol}`).first().waitFor();
    await section('Mídia');
    const image = panel.getByTestId('contact-media').getByRole('img', { name: 'foto.png' });
    await image.waitFor();
    await page.waitForFunction((el) => (el as unknown as { naturalWidth: number }).naturalWidth > 0, await image.elementHandle(), { timeout: 5_000 });
    await shot(page, 'contact-panel');

    await property.getByRole('button', { name: 'Excluir a propriedade Cidade natal' }).click();
    const confirm = dialog('Excluir a propriedade "Cidade natal"?');
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Excluído com sucesso.');
    await property.waitFor({ state: 'detached' });
    expect(await api.deps.knex('customer_properties').where({ customerId }).select('id')).to.deep.equal([]);
  });

  it('contact panel: a contact whose channel gave no name opens (phone, else "Contato sem nome") instead of the error page', async () => {
    const conversation = await makeConversation(api.deps, channel, { name: 'Sem Nome' });
    const customerId = await customerOf(conversation.conversationId);
    await api.deps.knex('customers').where({ id: customerId }).update({ name: null, phone: null, email: null });
    await openInbox(admin, `/inbox/all/${conversation.conversationId}`);
    const panel = page.getByTestId('contact-panel');
    await panel.getByRole('heading', { name: 'Contato sem nome' }).waitFor();
    await api.deps.knex('customers').where({ id: customerId }).update({ phone: '5511912345678' });
    await page.reload();
    await panel.getByRole('heading', { name: '5511912345678' }).waitFor();
    expect(await page.getByText('Algo deu errado ao mostrar esta página.').count()).to.equal(0);
  });

  it('merging contacts as an admin folds the other contact in ("Usuários mesclados"); an operator gets the MASTER notice', async () => {
    const stay = await makeConversation(api.deps, channel, { name: 'Daniela Souza' });
    const telegram = await makeChannel(api.deps.knex, ws, 'telegram', { name: 'Bot', description: 'Telegram da loja' });
    const leave: TestConversation = await makeConversation(api.deps, telegram, { name: 'Dani Telegram' });
    const stayId = await customerOf(stay.conversationId);
    const leaveId = await customerOf(leave.conversationId);

    await openInbox(admin, `/inbox/all/${stay.conversationId}`);
    const panel = page.getByTestId('contact-panel');
    await panel.getByRole('heading', { name: 'Daniela Souza' }).waitFor();
    await section('Mesclar contatos');
    await panel.getByRole('button', { name: 'Mesclar contatos' }).last().click();
    const merge = dialog('Mesclar contatos');
    await merge.getByLabel('Buscar contato por nome, telefone ou e-mail').fill('Dani Tele');
    await page.getByRole('option', { name: /Dani Telegram/ }).click();
    const confirm = dialog('Mesclar contatos?');
    await confirm.getByText('Dani Telegram será incorporado a Daniela Souza e removido.', { exact: false }).waitFor();
    await shot(page, 'merge-confirm');
    await confirm.getByRole('button', { name: 'Mesclar' }).click();
    await toast(page, 'Usuários mesclados');
    await panel.getByTestId('contact-channel').filter({ hasText: 'Telegram da loja' }).waitFor();
    expect(await panel.getByTestId('contact-channel').count()).to.equal(2);
    expect(await api.deps.knex('customers').where({ id: leaveId }).first()).to.equal(undefined);
    expect(await customerOf(leave.conversationId)).to.equal(stayId);

    await browser.close();
    browser = await openPage(api.url);
    page = browser.page;
    const operator = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Otto Operador' });
    await openInbox(operator, `/inbox/all/${stay.conversationId}`);
    await page.getByTestId('contact-panel').getByRole('heading', { name: 'Daniela Souza' }).waitFor();
    await section('Mesclar contatos');
    await page.getByTestId('contact-panel').getByText('Esta ação só pode ser feita como MASTER.').waitFor();
    expect(await page.getByTestId('contact-panel').getByRole('button', { name: 'Mesclar contatos' }).count(), 'only the section header').to.equal(1);
  });

  it('new outbound message: no WhatsApp line says so; Enviar waits for every field; the server error lands on the channel field', async () => {
    // A contact the admin can see (through its conversation), for the phone suggestions.
    await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'eduardo', name: 'Eduardo Lima', phone: '5511912345678' } }));
    await openInbox(admin);
    const sidebar = page.getByRole('navigation', { name: 'Caixas de entrada' });
    await sidebar.getByRole('button', { name: 'Nova mensagem' }).click();
    let dlg = dialog('Nova mensagem');
    await dlg.getByText('Nenhuma linha de WhatsApp conectada: mensagens ativas saem por uma linha de WhatsApp, adicionada em Configurações › Canais.').waitFor();
    await shot(page, 'new-message-no-line');
    await page.keyboard.press('Escape');
    await dlg.waitFor({ state: 'detached' });

    const line = await makeChannel(api.deps.knex, ws, 'whatsapp', { name: 'Vendas', description: 'WhatsApp Vendas', phone: '5511988887777', status: 'disconnected' });
    await page.reload();
    await sidebar.getByRole('button', { name: 'Nova mensagem' }).click();
    dlg = dialog('Nova mensagem');
    const send = dlg.getByRole('button', { name: 'Enviar' });
    expect(await send.isDisabled()).to.equal(true);

    // The only line is chosen already.
    await dlg.getByRole('combobox', { name: /^Canal/ }).filter({ hasText: 'WhatsApp Vendas' }).waitFor();
    const phone = dlg.getByLabel(/^Telefone/);
    await phone.pressSequentially('551191234');
    expect(await phone.inputValue()).to.equal('+55 (11) 9123-4');
    await page.getByRole('option', { name: /Eduardo Lima/ }).click();
    expect(await phone.inputValue()).to.equal('+55 (11) 91234-5678');
    expect(await dlg.getByLabel(/^Nome/).inputValue()).to.equal('Eduardo Lima');
    await phone.pressSequentially('99');
    expect(await phone.inputValue(), 'mask max 19 characters').to.equal('+55 (11) 91234-5678');
    await dlg.getByLabel(/^Mensagem/).fill('Olá Eduardo, tudo bem?');
    expect(await send.isDisabled()).to.equal(true);
    await dlg.getByLabel(/banimento do número/).check();
    expect(await send.isDisabled()).to.equal(false);
    await send.click();

    const channelField = dlg.getByRole('combobox', { name: /^Canal/ });
    await dlg.getByText('Nenhuma linha de WhatsApp conectada.', { exact: true }).waitFor();
    const describedBy = await channelField.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).to.equal('Nenhuma linha de WhatsApp conectada.');
    expect(page.url()).to.match(/\/inbox\/all$/);
    await shot(page, 'new-message-error');
    expect(line.id).to.be.a('number');
  });
});
