import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage, screenshotOnFailure, useAppPage, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, type TestChannel } from '../inbox/factories';
import { cutOff, logIn, switchOn, toast } from './support';

/**
 * CSAT after 'Resolver' (docs/csat.md), as a new user would try it: the owner turns the survey on in the
 * widget channel's settings, a visitor writes from the site, the owner resolves, the visitor answers with the
 * keyboard in the widget, and the rating shows on the question's bubble, in the contact's history and in
 * Relatórios › Satisfação, whose count opens the rated call.
 */
describe('e2e: CSAT — turn it on for the widget, resolve, the visitor rates, the rating shows in the inbox and the reports', function () {
  this.timeout(180_000);
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  let channel: TestChannel;
  let company: string;
  let visitor: BrowserSession | undefined;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    company = `Doceria ${Date.now()}`;
    const ws = await makeWorkspace(api.deps.knex, company);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site', avatar: '#1570EF' });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && visitor) {
      const file = await screenshotOnFailure(visitor.page, `visitor ${this.currentTest.fullTitle()}`);
      console.log(`    visitor screenshot: ${file}\n    visitor browser errors: ${JSON.stringify(visitor.consoleErrors)}`);
    }
    await visitor?.close();
    visitor = undefined;
  });

  it('the survey is off by default; on, the question reaches the widget after Resolver and the rating given by keyboard is on the call, the bubble, the history and the report', async () => {
    await logIn(page, owner, { live: true });
    await page.goto(`/settings/channels/chat-widget/${channel.id}`);
    const section = page.getByTestId('csat-settings');
    await section.getByRole('heading', { name: /^Pesquisa de satisfação \(CSAT\)/ }).waitFor();
    // Folded under the channel's own form, off: opened to turn it on.
    expect(await section.getByTestId('csat-state').textContent()).to.equal('Desligada');
    await section.getByRole('button', { name: /Pesquisa de satisfação \(CSAT\)/ }).click();
    const toggle = section.getByRole('switch', { name: 'Enviar a pesquisa ao resolver uma conversa deste canal' });
    expect(await toggle.isChecked()).to.equal(false);
    await switchOn(toggle);
    await section.getByLabel('Pergunta').fill('De 1 a 5, como foi o nosso atendimento hoje?');
    await section.getByRole('button', { name: 'Salvar pesquisa' }).click();
    await toast(page, 'Pesquisa de satisfação salva');
    await section.getByTestId('csat-state').filter({ hasText: 'Ligada' }).waitFor();
    const saved = await api.deps.knex('channels').where({ id: channel.id }).first('csat');
    expect(saved.csat).to.include({ enabled: true, question: 'De 1 a 5, como foi o nosso atendimento hoje?', scale: 'numbers' });

    // A visitor writes from the site.
    visitor = await openPage(api.config.publicUrl);
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${channel.identifier}`);
    const chat = v.getByRole('dialog', { name: company });
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Oi! Meu bolo chegou amassado.');
    await input.press('Enter');
    await chat.locator('li.msg.mine', { hasText: 'Meu bolo chegou amassado' }).waitFor();

    // The owner answers and resolves.
    await page.goto('/inbox/all');
    await page.getByRole('option').filter({ hasText: 'Meu bolo chegou amassado' }).click();
    await page.getByTestId('assign-menu').click();
    await page.getByRole('menuitem', { name: 'Olga Dona (você)' }).click();
    await page.getByTestId('assign-menu').filter({ hasText: 'Olga Dona' }).waitFor();
    await page.getByRole('combobox', { name: 'Responder' }).fill('Sentimos muito! Vamos enviar outro hoje.');
    await page.getByRole('combobox', { name: 'Responder' }).press('Enter');
    await chat.getByText('Vamos enviar outro hoje.').waitFor();
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByTestId('resolved-banner').waitFor();
    const log = page.getByRole('log', { name: 'Mensagens da conversa' });
    const question = log.locator('[role="article"]', { hasText: 'De 1 a 5, como foi o nosso atendimento hoje?' });
    await question.getByText('Pesquisa de satisfação').waitFor();
    await question.getByText('Aguardando a avaliação do cliente').waitFor();

    // The visitor sees the question with its five buttons and answers from the keyboard.
    const card = chat.locator('.csat');
    await chat.getByText('De 1 a 5, como foi o nosso atendimento hoje?').waitFor({ timeout: 20_000 });
    const four = card.getByRole('button', { name: '4 de 5: Satisfeito' });
    expect(await card.getByRole('button', { name: /de 5:/ }).count()).to.equal(5);
    const send = card.getByRole('button', { name: 'Enviar avaliação' });
    expect(await send.isDisabled()).to.equal(true);
    await four.focus();
    await v.keyboard.press('Enter');
    expect(await four.getAttribute('aria-pressed')).to.equal('true');
    // Tab: the '5' button, then the comment (what is typed there is the stored comment below).
    await v.keyboard.press('Tab');
    await v.keyboard.press('Tab');
    await v.keyboard.type('Resolveram rápido, obrigado!');
    expect(await card.getByLabel('Comentário (opcional)').inputValue()).to.equal('Resolveram rápido, obrigado!');
    await v.keyboard.press('Tab');
    await v.keyboard.press('Enter');
    await card.getByText('Sua nota: 4 de 5').waitFor();
    await card.getByText('Obrigado pela sua avaliação!').waitFor();

    // Stored on the call; the conversation stays resolved.
    const conv = await api.deps.knex('customer_platforms').where({ channelId: channel.id }).first();
    const call = await api.deps.knex('calls').where({ id: conv.currentCallId }).first();
    expect(call).to.include({ csatState: 'answered', csatRating: 4, csatComment: 'Resolveram rápido, obrigado!', isFinished: true });
    expect(conv.isFinished).to.equal(true);

    // The owner sees it live on the bubble, and in the contact's history.
    await question.locator('[data-testid="csat-status"][data-rating="4"]').waitFor();
    await question.getByText('Avaliação do cliente: 4 de 5').waitFor();
    await question.getByText('“Resolveram rápido, obrigado!”').waitFor();
    const panel = page.getByTestId('contact-panel');
    await panel.getByRole('button', { name: 'Histórico' }).click();
    await panel.getByTestId('contact-call-csat').filter({ hasText: 'Avaliação: 4/5' }).waitFor();

    // Relatórios › Satisfação: the figures, and the count opens the call.
    await page.goto('/reports/csat');
    await page.getByRole('tab', { name: 'Satisfação' }).waitFor();
    await page.getByTestId('csat-average-value').filter({ hasText: /^4$/ }).waitFor();
    expect(await page.getByTestId('csat-satisfied-value').textContent()).to.equal('100%');
    await page.getByTestId('report-chart').first().locator('.recharts-responsive-container').waitFor();
    await page.getByTestId('csat-agents').getByText('Olga Dona').waitFor();
    await page.getByRole('button', { name: 'Atendimentos com nota 4' }).click();
    const drill = page.getByRole('dialog', { name: 'Atendimentos com nota 4' });
    const row = drill.getByTestId('csat-drill-row');
    await row.getByText('Resolveram rápido, obrigado!').waitFor();
    expect(await row.count()).to.equal(1);
    await row.getByRole('link', { name: 'Abrir conversa' }).click();
    await page.waitForURL(`**/inbox/all/${conv.id}`);

    // On a phone the report and the channel's survey cut nothing off.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/reports/csat');
    await page.getByTestId('csat-agents').getByText('Olga Dona').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await cutOff(page), '/reports/csat at 390 px').to.deep.equal([]);
    await page.goto(`/settings/channels/chat-widget/${channel.id}`);
    await page.getByTestId('csat-settings').getByRole('button', { name: /Pesquisa de satisfação \(CSAT\)/ }).click();
    await page.getByRole('button', { name: 'Salvar pesquisa' }).waitFor();
    expect(await cutOff(page), 'the survey settings at 390 px').to.deep.equal([]);
  });
});
