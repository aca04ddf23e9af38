import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { CHROMIUM_PATH, launchBrowser, useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeLabel, type TestChannel } from '../inbox/factories';
import { logIn, toast } from './support';

/** A 2×2 PNG, so the preview has real pixels to load. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

const DIST = path.resolve('ui/dist/assets');

function entryScript(): string {
  const html = readFileSync(path.resolve('ui/dist/index.html'), 'utf8');
  return /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(html)![1]!;
}

/** The chunks a chunk imports statically (`import … from "./x.js"`), transitively; dynamic import() is left out. */
function staticClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(DIST, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)) visit(m[1]!);
  };
  roots.forEach(visit);
  return [...seen];
}

describe('e2e: inbox', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let agent: TestOperator;
  let channel: TestChannel;

  /** A customer writes through the widget channel, the way every channel hands messages to the inbox. */
  const inbound = (visitor: string, text: string, name = visitor) =>
    receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: visitor, name }, content: [{ insert: `${text}\n` }] }));

  const option = (name: string) => page.getByRole('option', { name: new RegExp(name) });
  const log = () => page.getByRole('log', { name: 'Mensagens da conversa' });
  const composer = () => page.getByRole('combobox', { name: /Responder|Nota privada/ });

  async function openInbox(): Promise<void> {
    await logIn(page, { email: agent.email, password: agent.password });
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
  }

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site' });
  });

  it('shows a new inbound message live, opens it, replies, notes, resolves, and a new message reopens it as a new call', async () => {
    await openInbox();
    await page.getByText('Nenhuma conversa selecionada.').waitFor();
    expect(await page.getByTestId('inbox-empty').textContent()).to.equal('Sem conversas');
    await page.evaluate("window.__sounds = 0; window.addEventListener('balcao:notification-sound', () => window.__sounds++)");

    const first = await inbound('maria', 'Olá, preciso de ajuda com meu pedido https://exemplo.com.br/pedido/42.', 'Maria Cliente');
    // Live: no reload, the row appears with its unread marker, the header dot lights up, a chime plays.
    await option('Maria Cliente').waitFor();
    expect(await option('Maria Cliente').getAttribute('data-unread')).to.equal('true');
    await page.locator('.MuiBadge-dot:not(.MuiBadge-invisible)').waitFor();
    expect(await page.evaluate<number>('window.__sounds')).to.equal(1);
    await page.getByRole('link', { name: /^Caixa de entrada, 1 não lida/ }).waitFor();
    await page.getByTestId('pending-count').filter({ hasText: '1 conversa pendente, aguardando um agente' }).waitFor();

    await option('Maria Cliente').click();
    await page.waitForURL(`**/inbox/all/${first.conversationId}`);
    await page.getByTestId('conversation-name').filter({ hasText: 'Maria Cliente' }).waitFor();
    await log().getByText('Olá, preciso de ajuda com meu pedido').waitFor();
    const link = log().getByRole('link', { name: 'https://exemplo.com.br/pedido/42' });
    expect(await link.getAttribute('href')).to.equal('https://exemplo.com.br/pedido/42');
    expect(await link.getAttribute('rel')).to.contain('noopener');
    // Opening it read it: the marker and the header dot go away.
    await page.locator('.MuiBadge-dot.MuiBadge-invisible').waitFor({ state: 'attached' });
    expect(await option('Maria Cliente').getAttribute('data-unread')).to.equal(null);
    const row = await api.deps.knex('customer_platforms').where({ id: first.conversationId }).first('has_new_messages');
    expect(row.hasNewMessages).to.equal(false);

    const composing: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/integrations/composing')) composing.push(req.postData() ?? '');
    });
    await composer().pressSequentially('Oi Maria, vou verificar agora.');
    await composer().press('Enter');
    const reply = log().getByRole('article').filter({ hasText: 'Oi Maria, vou verificar agora.' });
    await reply.waitFor();
    expect(await composer().inputValue()).to.equal('');
    // Stored (clock) then handed to the widget (check) through chat.messageStatus.
    await reply.locator('[data-status="2"]').waitFor();
    const sent = await api.deps.knex('messages').where({ customerPlatformId: first.conversationId, sender: 'operator' }).first('type', 'content');
    expect(sent).to.deep.equal({ type: 0, content: [{ insert: 'Oi Maria, vou verificar agora.\n' }] });
    // Typing tells the customer at most once a second (the whole sentence is typed well within a few seconds).
    expect(composing.length).to.be.within(1, 4);
    expect(JSON.parse(composing[0]!)).to.deep.equal({ customerPlatformId: first.conversationId });
    const typedReply = composing.length;

    await page.getByRole('button', { name: 'Nota privada' }).click();
    await page.getByText('Notas são privadas e visíveis apenas para você e sua equipe').waitFor();
    await composer().pressSequentially('Cliente VIP, priorizar.');
    await composer().press('Enter');
    const note = log().getByRole('article', { name: 'Nota privada' }).filter({ hasText: 'Cliente VIP, priorizar.' });
    await note.waitFor();
    await log().locator('[data-pending]').waitFor({ state: 'detached' });
    expect(await note.locator('[data-status]').count(), 'a note has no delivery status').to.equal(0);
    const stored = await api.deps.knex('messages').where({ customerPlatformId: first.conversationId, type: 2 }).first('text');
    expect(stored.text).to.equal('Cliente VIP, priorizar.');
    expect(composing.length, 'a private note never tells the customer someone is typing').to.equal(typedReply);
    expect(await page.evaluate<number>('window.__sounds'), 'our own messages make no sound').to.equal(1);

    const protocolBefore = await page.getByTestId('conversation').locator('header').getByText(/Protocolo \d+/).textContent();
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByTestId('resolved-banner').waitFor();
    expect(await page.getByTestId('resolved-banner').textContent()).to.contain('Esta conversa foi resolvida.');
    expect(await composer().count(), 'composer hidden').to.equal(0);
    await option('Maria Cliente').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Arquivado' }).click();
    await option('Maria Cliente').waitFor();

    // The customer writes again: a new call opens and the conversation is live again everywhere.
    await inbound('maria', 'Esqueci de perguntar uma coisa');
    await page.getByRole('link', { name: /^Caixa de entrada/ }).click();
    await option('Maria Cliente').click();
    await log().getByText('Esqueci de perguntar uma coisa').waitFor();
    await page.getByTestId('resolved-banner').waitFor({ state: 'detached' });
    await composer().waitFor();
    const protocolAfter = await page.getByTestId('conversation').locator('header').getByText(/Protocolo \d+/).textContent();
    expect(protocolAfter).to.not.equal(protocolBefore);
    await page.locator('.MuiBadge-dot.MuiBadge-invisible').waitFor({ state: 'attached' });
    const calls = await api.deps.knex('calls').where({ customerPlatformId: first.conversationId }).orderBy('id');
    expect(calls.map((c: { isFinished: boolean }) => c.isFinished)).to.deep.equal([true, false]);
    await page.screenshot({ path: 'test-results/inbox-conversation.png' });
  });

  it("inserts a quick phrase picked from the '/' menu with the arrow keys and Enter", async () => {
    for (const [tag, phrase, privacy] of [
      ['/saudacao', 'Olá! Obrigado por entrar em contato com a Acme.', 'public'],
      ['/sair', 'Até logo, tenha um ótimo dia!', 'private'],
    ]) {
      const res = await api.request('POST', '/api/inbox/quick-phrases', { token: agent.token, body: { tag, phrase, privacy } });
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    }
    const conv = await inbound('joao', 'Bom dia', 'João Pereira');
    await openInbox();
    await option('João Pereira').click();
    await composer().waitFor();

    await composer().pressSequentially('/sa');
    const menu = page.getByRole('listbox', { name: 'Frases rápidas' });
    await menu.waitFor();
    expect(await menu.getByRole('option').allTextContents()).to.have.length(2);
    expect(await menu.getByRole('option').nth(1).textContent()).to.contain('Privada');
    await composer().press('ArrowDown');
    expect(await menu.getByRole('option', { selected: true }).textContent()).to.contain('/sair');
    await composer().press('ArrowUp');
    await composer().press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(await composer().inputValue()).to.equal('Olá! Obrigado por entrar em contato com a Acme.');
    await composer().press('Enter');
    await log().getByText('Olá! Obrigado por entrar em contato com a Acme.').waitFor();
    await log().locator('[data-pending]').waitFor({ state: 'detached' });
    const sent = await api.deps.knex('messages').where({ customerPlatformId: conv.conversationId, sender: 'operator' }).first('text');
    expect(sent.text).to.equal('Olá! Obrigado por entrar em contato com a Acme.');

    // Escape closes the menu and keeps the text; the detail stays open.
    await composer().pressSequentially('/sa');
    await menu.waitFor();
    await composer().press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await composer().inputValue()).to.equal('/sa');
    expect(page.url()).to.contain(`/inbox/all/${conv.conversationId}`);
  });

  it('sends a file through the send-file modal, refuses one over 16 MB, and shows the image preview', async () => {
    const conv = await inbound('carla', 'Pode mandar o comprovante?', 'Carla Dias');
    await openInbox();
    await option('Carla Dias').click();
    await composer().waitFor();

    await page.getByRole('button', { name: 'Enviar arquivo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar arquivo' });
    await dialog.waitFor();
    // Dropped onto the modal (the file is made in the page: 16 MB through the protocol is slow on a busy machine).
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(16 * 1024 * 1024 + 1)], 'grande.pdf', { type: 'application/pdf' }));
      const zone = document.querySelector('[data-testid="send-file-drop"]');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
    await dialog.getByText('Maior que 16 MB').waitFor();
    expect(await dialog.getByRole('button', { name: 'Enviar', exact: true }).isDisabled()).to.equal(true);
    await dialog.getByRole('button', { name: 'Remover grande.pdf' }).click();

    await page.getByTestId('send-file-input').setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await toast(page, 'Mensagem enviada.');
    await dialog.waitFor({ state: 'detached' });
    const image = log().getByRole('img', { name: 'comprovante.png' });
    await image.waitFor();
    await page.waitForFunction(() => [...(globalThis as unknown as PageDoc).document.querySelectorAll('img[alt="comprovante.png"]')].some((i) => i.complete && i.naturalWidth === 2));
    const stored = await api.deps.knex('messages').where({ customerPlatformId: conv.conversationId, sender: 'operator' }).first('content', 'is_media');
    expect(stored.isMedia).to.equal(true);
    expect(stored.content[0].file).to.include({ fileName: 'comprovante.png', mime: 'image/png', size: PNG.length });

    // Escape closes a modal.
    await page.getByRole('button', { name: 'Enviar arquivo' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).to.contain(`/inbox/all/${conv.conversationId}`);
  });

  it('moves through the list with j/k and the arrows, opens with Enter, closes with Escape', async () => {
    const a = await inbound('v-a', 'Primeira', 'Ana Antiga');
    const b = await inbound('v-b', 'Segunda', 'Bruno Meio');
    const c = await inbound('v-c', 'Terceira', 'Célia Nova');
    await openInbox();
    const list = page.getByRole('listbox', { name: 'Caixa de entrada' });
    await list.waitFor();
    expect(await list.getByRole('option').allTextContents()).to.have.length(3);
    // Newest first.
    expect((await list.getByRole('option').first().textContent()) ?? '').to.contain('Célia Nova');
    await page.screenshot({ path: 'test-results/inbox-list.png' });

    await page.keyboard.press('j');
    expect(await list.getAttribute('aria-activedescendant')).to.equal(`inbox-conversation-${c.conversationId}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('j');
    expect(await list.getAttribute('aria-activedescendant')).to.equal(`inbox-conversation-${a.conversationId}`);
    await page.keyboard.press('k');
    expect(await list.getAttribute('aria-activedescendant')).to.equal(`inbox-conversation-${b.conversationId}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/inbox/all/${b.conversationId}`);
    expect(await list.getByRole('option', { selected: true }).textContent()).to.contain('Bruno Meio');
    await log().getByText('Segunda').waitFor();

    // Escape in the composer does not close; from the page it does, to /inbox/new.
    await composer().click();
    await page.keyboard.press('Escape');
    expect(page.url()).to.contain(`/inbox/all/${b.conversationId}`);
    await page.getByRole('listbox', { name: 'Caixa de entrada' }).focus();
    await page.keyboard.press('Escape');
    await page.waitForURL('**/inbox/new');
    await page.getByText('Nenhuma conversa selecionada.').waitFor();
    // The list stays on the segment it was showing.
    expect(await list.getByRole('option').count()).to.equal(3);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/inbox/all/${c.conversationId}`);
  });

  it('assigns to me, toggles tags (rolled back when the server refuses), and deletes a private note', async () => {
    const vip = await makeLabel(api.deps.knex, ws, 'VIP');
    const gone = await makeLabel(api.deps.knex, ws, 'Urgente');
    const conv = await inbound('lia', 'Meu pedido atrasou', 'Lia Campos');
    await openInbox();
    await option('Lia Campos').click();
    await composer().waitFor();

    await page.getByTestId('assign-menu').click();
    await page.getByRole('menuitem', { name: 'Ana Agente (você)' }).click();
    await page.getByTestId('assign-menu').filter({ hasText: 'Ana Agente' }).waitFor();
    await page.waitForFunction(conversationMatches, { id: conv.conversationId, field: 'operatorId' as const, value: agent.id });
    await page.getByRole('link', { name: /^Meus/ }).click();
    await option('Lia Campos').click();
    await page.waitForURL(`**/inbox/me/${conv.conversationId}`);

    await page.getByTestId('tags-menu').click();
    await page.getByRole('menuitemcheckbox', { name: 'VIP' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'VIP', checked: true }).waitFor();
    await page.waitForFunction(conversationMatches, { id: conv.conversationId, field: 'tagCount' as const, value: 1 });
    const tagged = await api.deps.knex('call_labels').where({ callId: conv.callId }).pluck('label_id');
    expect(tagged).to.deep.equal([vip]);
    // Another agent deletes 'Urgente' meanwhile: the optimistic tick goes back and the server's reason shows.
    await api.deps.knex('labels').where({ id: gone }).delete();
    await page.getByRole('menuitemcheckbox', { name: 'Urgente' }).click();
    await toast(page, 'Etiqueta não encontrada.');
    await page.getByRole('menuitemcheckbox', { name: 'Urgente', checked: false }).waitFor();
    await page.keyboard.press('Escape');
    expect(await api.deps.knex('call_labels').where({ callId: conv.callId }).pluck('label_id')).to.deep.equal([vip]);

    await page.getByRole('button', { name: 'Nota privada' }).click();
    await composer().fill('Nota para apagar');
    await composer().press('Enter');
    const note = log().getByRole('article', { name: 'Nota privada' }).filter({ hasText: 'Nota para apagar' });
    await note.waitFor();
    await log().locator('[data-pending]').waitFor({ state: 'detached' });
    await note.hover();
    await note.getByRole('button', { name: 'Apagar mensagem' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('A nota será apagada para toda a equipe.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Apagar mensagem' }).click();
    await log().getByText('Mensagem removida').waitFor();
    const deleted = await api.deps.knex('messages').where({ customerPlatformId: conv.conversationId, type: 2 }).first('is_deleted');
    expect(deleted.isDeleted).to.equal(true);
  });

  it('removes a conversation live when the operator may no longer see it', async () => {
    const restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2, { name: 'Rui Restrito' });
    const conv = await inbound('tom', 'Alguém aí?', 'Tomás Lima');
    await logIn(page, { email: restricted.email, password: restricted.password });
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    await option('Tomás Lima').click();
    await log().getByText('Alguém aí?').waitFor();

    // The owner takes it: a restricted agent only sees unassigned conversations and their own.
    const res = await api.request('POST', '/api/calls/transfer-operator', { token: agent.token, body: { customerPlatformId: conv.conversationId, operatorId: agent.id } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await toast(page, 'Esta conversa não está mais visível para você.');
    await page.waitForURL('**/inbox/new');
    await option('Tomás Lima').waitFor({ state: 'detached' });
    await page.getByTestId('inbox-empty').waitFor();
  });

  it('records a voice message, previews, discards, records again and sends it, stored as an Ogg/Opus voice note (record.ogg)', async () => {
    const conv = await inbound('bia', 'Pode me mandar um áudio?', 'Bia Souza');
    // Chromium's fake microphone (a beep), in a browser of its own: the shared one has no media flags.
    const withMic = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] });
    try {
      const context = await withMic.newContext({ baseURL: api.url, locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['microphone'], { origin: api.url });
      const previous = page;
      page = await context.newPage();
      try {
        await openInbox();
        await option('Bia Souza').click();
        await composer().waitFor();
        await page.getByRole('button', { name: 'Gravar áudio' }).click();
        const dialog = page.getByRole('dialog', { name: 'Gravar áudio' });
        await dialog.getByRole('button', { name: 'Gravar' }).click();
        await dialog.getByRole('timer').waitFor();
        await page.waitForTimeout(1200);
        await dialog.getByRole('button', { name: 'Parar' }).click();
        await dialog.getByLabel('Ouvir gravação').waitFor();
        await dialog.getByRole('button', { name: 'Excluir' }).click();
        await dialog.getByLabel('Ouvir gravação').waitFor({ state: 'detached' });
        expect(await dialog.getByRole('button', { name: 'Enviar' }).isDisabled()).to.equal(true);

        await dialog.getByRole('button', { name: 'Gravar' }).click();
        await page.waitForTimeout(1200);
        await dialog.getByRole('button', { name: 'Parar' }).click();
        await dialog.getByLabel('Ouvir gravação').waitFor();
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        await toast(page, 'Áudio enviado');
        await dialog.waitFor({ state: 'detached' });
        await log().locator('audio').waitFor();
        const stored = await api.deps.knex('messages').where({ customerPlatformId: conv.conversationId, sender: 'operator' }).first('content');
        expect(stored.content[0].file).to.include({ fileName: 'record.ogg', mime: 'audio/ogg' });
        expect(stored.content[0].file.size).to.be.greaterThan(0);
      } finally {
        await page.close();
        page = previous;
      }
    } finally {
      await withMic.close();
    }
  });

  it('pages the list (20, then 50 more), searches with a debounce, and scrolls back through 30-message pages with date separators', async () => {
    for (let i = 1; i <= 23; i++) await inbound(`p-${i}`, `Mensagem ${i}`, `Cliente ${String(i).padStart(2, '0')}`);
    // 45 messages over three days: the first page holds the last 30.
    const day = 86_400_000;
    const now = Date.now();
    for (let i = 1; i <= 45; i++) {
      const sentAt = new Date(now - (i <= 15 ? 2 * day : i <= 30 ? day : 0) - (46 - i) * 60_000);
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'historia', name: 'Helena Histórico' }, content: [{ insert: `Linha ${i}\n` }], sentAt }));
    }
    const requests: string[] = [];
    page.on('request', (req) => {
      if (/\/api\/inbox\?/.test(req.url())) requests.push(new URL(req.url()).search);
    });
    await openInbox();
    const list = page.getByRole('listbox', { name: 'Caixa de entrada' });
    await list.getByRole('option').nth(19).waitFor();
    expect(await list.getByRole('option').count()).to.equal(20);
    await page.getByRole('button', { name: 'Carregar mais conversas' }).click();
    await list.getByRole('option').nth(23).waitFor();
    await page.getByRole('button', { name: 'Carregar mais conversas' }).waitFor({ state: 'detached' });
    expect(requests.filter((q) => !q.includes('cursor=')).every((q) => q.includes('limit=20'))).to.equal(true);
    const next = requests.filter((q) => q.includes('cursor='));
    expect(next).to.have.length(1);
    expect(next[0]).to.contain('limit=50');

    requests.length = 0;
    await page.getByRole('searchbox', { name: 'Buscar conversas' }).pressSequentially('Cliente 07');
    await page.getByRole('listbox', { name: 'Caixa de entrada' }).getByRole('option').nth(1).waitFor({ state: 'detached' });
    expect(await page.getByRole('listbox', { name: 'Caixa de entrada' }).getByRole('option').allTextContents()).to.have.length(1);
    expect(requests.filter((q) => q.includes('query=')), 'one search after the typing pauses').to.have.length(1);
    await page.getByRole('searchbox', { name: 'Buscar conversas' }).fill('ninguém com esse nome');
    await page.getByTestId('inbox-empty').filter({ hasText: 'Sem conversas' }).waitFor();
    await page.getByRole('button', { name: 'Limpar busca' }).click();

    await option('Helena Histórico').click();
    await log().getByText('Linha 45').waitFor();
    expect(await log().getByText('Linha 15', { exact: true }).count(), 'older page not loaded yet').to.equal(0);
    expect(await log().getByRole('article').count()).to.equal(30);
    await log().getByRole('separator', { name: 'Hoje' }).waitFor();
    await log().getByRole('separator', { name: 'Ontem' }).waitFor();
    // Scrolling to the top loads the previous page and keeps the reader where they were.
    await log().evaluate((el: any) => {
      el.scrollTop = 0;
    });
    await log().getByText('Linha 1', { exact: true }).waitFor();
    expect(await log().getByRole('article').count()).to.equal(45);
    expect(await log().getByRole('separator').count()).to.equal(3);
    // What was at the top before (the 'Ontem' separator, then Linha 16) is still at the top.
    const offset = await log().evaluate((el: any) => {
      const first = [...el.querySelectorAll('[role=article]')].find((a: any) => a.textContent.startsWith('Linha 16'));
      return first.getBoundingClientRect().top - el.getBoundingClientRect().top;
    });
    expect(offset).to.be.within(0, 120);
    await page.screenshot({ path: 'test-results/inbox-history.png' });
  });

  it('refetches the list after the live connection comes back', async () => {
    await inbound('antes', 'Primeira', 'Antes da queda');
    await openInbox();
    await option('Antes da queda').waitFor();
    // The broker drops the session; what happens meanwhile never arrives as an event.
    await api.broker.disconnectOperator(ws.id, agent.id);
    await page.locator('[data-testid="live-indicator"]:not([data-status="online"])').waitFor();
    await inbound('durante', 'Escrevi enquanto você estava sem conexão', 'Durante a queda');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor({ timeout: 20_000 });
    await option('Durante a queda').waitFor();
    await page.getByRole('link', { name: /^Caixa de entrada, 2 não lidas/ }).waitFor();
  });

  it('loads the inbox route without the modals, the recorder or the contact panel code', async () => {
    await inbound('rafa', 'Olá', 'Rafa');
    await openInbox();
    const session = await page.evaluate<Record<string, string>>("Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]))");
    // A fresh context (empty cache) already logged in: exactly what a returning agent downloads for /inbox/all.
    const fresh = await (await launchBrowser()).newContext({ baseURL: api.url, viewport: { width: 1280, height: 800 } });
    try {
      await fresh.addInitScript(`for (const [k, v] of Object.entries(${JSON.stringify(session)})) localStorage.setItem(k, v);`);
      const other = await fresh.newPage();
      const names: string[] = [];
      other.on('response', (res) => {
        if (res.request().resourceType() === 'script' && res.ok()) names.push(new URL(res.url()).pathname.split('/').pop()!);
      });
      await other.goto('/inbox/all');
      await other.getByRole('option', { name: /Rafa/ }).waitFor();
      await other.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
      for (const lazy of ['SendFileDialog', 'VoiceRecorderDialog', 'ContactPanel', 'SegmentEditorDialog', 'SegmentBrowserDialog', 'NewMessageDialog', 'QuickPhraseDialog', 'AuthRoutes']) {
        expect(names.some((n) => n.startsWith(`${lazy}-`)), `${lazy} loaded up front`).to.equal(false);
      }
      // What /inbox/all needs before its first render: the entry and the logged-in app chunk with
      // everything they import statically (lazy chunks such as the conversation view and mqtt.js load later).
      const critical = staticClosure([entryScript(), names.find((n) => n.startsWith('AdminApp-'))!]);
      const kb = (files: string[]) => files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(DIST, f))).length, 0) / 1024;
      if (process.env.BUNDLE_DETAIL) for (const f of critical) console.log(`      ${f} ${kb([f]).toFixed(1)} kB`);
      const later = names.filter((n) => !critical.includes(n));
      console.log(`    /inbox/all: ${critical.length} scripts, ${kb(critical).toFixed(1)} kB gzip before the first render; then ${later.length} more so far (mqtt.js, idle prefetch of the conversation view) ${kb(later).toFixed(1)} kB`);
    } finally {
      await fresh.close();
    }
  });
});

/** Runs in the page: whether the stored conversation already shows the expected assignee or tag count. */
async function conversationMatches({ id, field, value }: { id: number; field: 'operatorId' | 'tagCount'; value: number }): Promise<boolean> {
  const { localStorage } = globalThis as unknown as PageDoc;
  const token = (JSON.parse(localStorage.getItem('balcao.workspace') ?? '{}') as { token?: string }).token ?? '';
  const body = (await (await fetch(`/api/inbox/conversations/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { operatorId: number | null; tags: unknown[] } };
  return field === 'operatorId' ? body.data.operatorId === value : body.data.tags.length === value;
}

/** The little of the DOM the in-page predicates use (the test tsconfig has no DOM lib). */
interface PageDoc {
  document: { querySelectorAll(selector: string): Iterable<{ complete: boolean; naturalWidth: number }> };
  localStorage: { getItem(key: string): string | null };
}
