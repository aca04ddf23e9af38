import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeLabel, type TestChannel } from '../inbox/factories';
import { ClockedCall } from '../reports/clock';
import { startExportWorker } from '../reports/exportSupport';
import { cutOff, logIn } from './support';
import { defaultDays } from '../../api/businessHours/schedule';

/** e2e of the report pages (issue 27): overview live, team, 'Relatório de Conversas' with filters and drill-down. */
describe('e2e: reports (Resumo de hoje live, Equipe, Relatório de Conversas)', function () {
  this.timeout(150_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let widget: TestChannel;
  let telegram: TestChannel;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    widget = await makeChannel(api.deps.knex, ws, 'widget', { description: 'Site' });
    telegram = await makeChannel(api.deps.knex, ws, 'telegram', { description: 'Bot Telegram' });
  });

  const value = (id: string) => page.getByTestId(`${id}-value`).innerText();
  async function until(read: () => Promise<string>, expected: string): Promise<void> {
    for (const end = Date.now() + 20_000; ; ) {
      const now = await read();
      if (now === expected) return;
      if (Date.now() > end) throw new Error(`expected ${expected}, still ${now}`);
      await page.waitForTimeout(100);
    }
  }

  /** Three answered calls in the last hours: two on the widget, one on Telegram. */
  async function history(): Promise<ClockedCall[]> {
    const knex = api.deps.knex;
    // One instant for every moment of the history: on a busy machine the writes take seconds, which would
    // otherwise show in the times (a TMA of '18min 1s').
    const now = Date.now();
    const ago = (min: number) => new Date(now - min * 60_000);
    const calls: ClockedCall[] = [];
    for (const [channel, wait] of [
      [widget, 2],
      [widget, 4],
      [telegram, 6],
    ] as const) {
      const c = await ClockedCall.open(knex, ws.id, channel.id, ago(30), { operatorId: owner.id });
      await c.customerWrites(ago(30));
      await c.agentReplies(ago(30 - wait));
      calls.push(c);
    }
    await calls[0].finish(ago(10));
    return calls;
  }

  it('Relatório de Conversas: cards and table from the figures, a filter changes them, a number opens its calls and one opens the conversation', async () => {
    const calls = await history();
    const vip = await makeLabel(api.deps.knex, ws, 'VIP');
    await api.deps.knex('call_labels').insert({ workspaceId: ws.id, callId: calls[0].id, labelId: vip });
    await logIn(page, owner);
    await page.goto('/reports/conversations');
    await page.getByRole('heading', { name: 'Relatório de Conversas' }).waitFor();
    await until(() => value('card-new'), '3');
    expect(await value('card-resolved')).to.equal('1');
    expect(await value('card-tme')).to.equal('4min');
    expect(await page.getByTestId('report-row').count()).to.equal(7);
    await page.getByText('Tempo corrido (horário comercial desligado)').waitFor();
    // A number of the table opens the calls behind it: the day of the three calls, its 'Novas'.
    const newOfDay = page.getByTestId('report-table').getByRole('button', { name: /^Novas / });
    expect(await newOfDay.count()).to.equal(1);
    expect(await newOfDay.innerText()).to.equal('3');
    await newOfDay.click();
    await page.getByRole('dialog').getByTestId('drill-row').first().waitFor();
    expect(await page.getByRole('dialog').getByTestId('drill-row').count()).to.equal(3);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // Monthly: one or two rows (the last 7 days may cross a month).
    await page.getByLabel('Frequência').click();
    await page.getByRole('option', { name: 'Mensal' }).click();
    for (const end = Date.now() + 10_000; (await page.getByTestId('report-row').count()) > 2; ) {
      if (Date.now() > end) throw new Error('the table stayed daily');
      await page.waitForTimeout(100);
    }

    await page.getByLabel('Canais').click();
    await page.getByRole('option', { name: 'Bot Telegram' }).click();
    await until(() => value('card-new'), '1');
    expect(await value('card-tme')).to.equal('6min');

    await page.getByTestId('card-new').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('drill-row').first().waitFor();
    expect(await dialog.getByTestId('drill-row').count()).to.equal(1);
    await dialog.getByRole('link', { name: 'Abrir conversa' }).click();
    await page.waitForURL(`**/inbox/all/${calls[2].conversationId}`);

    // The period picker remembers the last choice.
    await page.goto('/reports/conversations');
    await until(() => value('card-new'), '1');
    expect(await value('card-tme')).to.equal('6min');

    // A tag instead of the channel: the call tagged VIP alone (answered after 2 min).
    await page.getByLabel('Canais').click();
    await page.getByRole('option', { name: 'Todos os canais' }).click();
    await until(() => value('card-new'), '3');
    await page.getByLabel('Etiquetas').click();
    await page.getByRole('option', { name: 'VIP' }).click();
    await until(() => value('card-tme'), '2min');
    expect(await value('card-new')).to.equal('1');
  });

  it('shows the empty states: no calls in the period, and a team of one is offered the invitation', async () => {
    await logIn(page, owner);
    await page.goto('/reports/conversations');
    await page.getByTestId('report-empty').waitFor();
    expect(await page.getByTestId('report-empty').innerText()).to.equal('Nenhuma conversa no período.');
    expect(await value('card-tme')).to.equal('-');
    await page.goto('/reports/team');
    await page.getByTestId('team-empty').waitFor();
    await page.getByRole('link', { name: 'Convidar Novo Agente' }).click();
    await page.waitForURL('**/settings/members/new');
  });

  it('Equipe: each agent with a link to the member and their times', async () => {
    await history();
    const ana = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Souza' });
    await logIn(page, owner);
    await page.goto('/reports/team');
    await page.getByTestId('team-table').waitFor();
    const olga = page.getByTestId('team-row').filter({ hasText: 'Olga Dona' });
    // TME 2, 4 and 6 min (mean 4min), the same answers as TMR, one call finished 18 min after its reply.
    expect(await olga.locator('td').allInnerTexts()).to.deep.equal(['Olga Dona', '4min', '4min', '18min', '3', '1']);
    expect(await page.getByTestId('team-row').filter({ hasText: 'Ana Souza' }).locator('td').allInnerTexts()).to.deep.equal(['Ana Souza', '-', '-', '-', '0', '0']);
    expect(await page.getByRole('link', { name: 'Ana Souza' }).getAttribute('href')).to.equal(`/settings/members/${ana.id}`);
    await page.getByTestId('report-chart').locator('svg').first().waitFor();
  });

  it('Visão geral pages its table by 10, Contatos lists each contact with its service channel, Etiquetas counts tag uses; the tabs lead from one to the other', async () => {
    const calls = await history();
    const vip = await makeLabel(api.deps.knex, ws, 'VIP');
    await api.deps.knex('call_labels').insert({ workspaceId: ws.id, callId: calls[0].id, labelId: vip });
    await logIn(page, owner);
    await page.goto('/reports/conversations2');
    await page.getByRole('heading', { name: 'Visão geral' }).waitFor();
    await page.getByLabel('Período').click();
    await page.getByRole('option', { name: 'Últimos 30 dias' }).click();
    await page.getByText('1–10 de 30').waitFor();
    expect(await page.getByTestId('report-row').count()).to.equal(10);
    expect(await page.getByTestId('report-chart').count()).to.equal(2);

    await page.getByRole('tab', { name: 'Relatório de Contatos' }).click();
    await page.waitForURL('**/reports/customers');
    await page.getByTestId('customers-table').waitFor();
    const channels = (await page.getByTestId('customer-row').locator('td:last-child').allInnerTexts()).sort();
    expect(channels).to.deep.equal(['Telegram', 'Widget', 'Widget']);

    await page.getByRole('tab', { name: 'Relatório de Etiquetas' }).click();
    await page.waitForURL('**/reports/tags');
    await page.getByTestId('tag-row').filter({ hasText: 'VIP' }).waitFor();
    expect(await page.getByTestId('tag-row').filter({ hasText: 'VIP' }).locator('td').allInnerTexts()).to.deep.equal(['VIP', '1']);
  });

  it('works on a phone (360 px): the page never scrolls sideways, the table scrolls inside its box, a card still opens its calls', async () => {
    await history();
    await page.setViewportSize({ width: 360, height: 740 });
    await logIn(page, owner);
    await page.goto('/reports/conversations');
    await until(() => value('card-new'), '3');
    const widths = await page.evaluate<{ doc: number; view: number }>('({ doc: document.documentElement.scrollWidth, view: window.innerWidth })');
    expect(widths.doc).to.be.at.most(widths.view);
    // Nothing past the edge either: a page can fit its width while a part of it is cut off (the header's words were).
    expect(await cutOff(page)).to.deep.equal([]);
    await page.getByTestId('card-resolved').click();
    await page.getByRole('dialog').getByTestId('drill-row').first().waitFor();
  });

  it('on a phone (390×844) and a desktop no report page cuts anything off: the filters with the business-hours switch, the export menu, the schedule list', async () => {
    await history();
    const knex = api.deps.knex;
    await api.deps.knex('business_hours').insert({ workspaceId: ws.id, name: 'Comercial', days: JSON.stringify(defaultDays()), sort: 0 });
    const long = await makeOperator(knex, api.config.jwtSecret, ws, 3, { name: 'Maria Aparecida dos Santos Figueiredo Albuquerque' });
    // Rows only (their Temporal Schedules are not needed to list them): one per report that has a list.
    for (const kind of ['conversations', 'team', 'tags'])
      await knex('report_schedules').insert({ workspaceId: ws.id, createdBy: owner.id, kind, frequency: 'monthly', recipients: [owner.id, long.id], query: '{}' });
    await logIn(page, owner);
    for (const size of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      for (const path of ['/reports/overview', '/reports/team', '/reports/conversations', '/reports/conversations2', '/reports/customers', '/reports/tags']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const where = `${path} at ${size.width} px`;
        if (['/reports/team', '/reports/conversations', '/reports/tags'].includes(path)) {
          await page.getByTestId('report-schedule').first().waitFor();
          expect(await page.getByTestId('report-schedule').count(), where).to.equal(1);
        }
        if (await page.getByTestId('report-mode').count()) {
          await page.getByTestId('report-mode').locator('input').check();
          await page.getByText('Somente horário comercial').first().waitFor();
        }
        expect(await cutOff(page), where).to.deep.equal([]);
        if (await page.getByTestId('report-export').count()) {
          await page.getByTestId('report-export').click();
          await page.getByRole('menuitem', { name: 'Exportar para Email' }).waitFor();
          expect(await cutOff(page), `${where}, export menu open`).to.deep.equal([]);
          await page.keyboard.press('Escape');
          await page.getByRole('menu').waitFor({ state: 'hidden' });
        }
        if (path === '/reports/conversations') {
          await page.getByTestId('report-export').click();
          await page.getByRole('menuitem', { name: 'Programar envio por e-mail' }).click();
          await page.getByTestId('schedule-recipients').getByText(long.name).waitFor();
          expect(await cutOff(page), `${where}, schedule dialog`).to.deep.equal([]);
          // The chosen frequency reads whole, not 'Semanal (segunda-feira, 7…' (an ellipsis is no overflow for cutOff).
          const frequency = page.getByRole('dialog').getByRole('combobox');
          expect(await frequency.evaluate((el) => { const box = el as unknown as { scrollWidth: number; clientWidth: number }; return box.scrollWidth <= box.clientWidth; }), `${where}, frequency`).to.equal(true);
          expect(await frequency.innerText()).to.equal('Semanal (segunda-feira, 7h: a semana anterior)');
          if (process.env.REPORTS_SHOTS) await page.waitForTimeout(500).then(() => page.screenshot({ path: `${process.env.REPORTS_SHOTS}/${size.width}-schedule-dialog.png` }));
          await page.getByRole('button', { name: 'Cancelar' }).click();
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
        }
        if (process.env.REPORTS_SHOTS) await page.screenshot({ path: `${process.env.REPORTS_SHOTS}/${size.width}${path.replace(/\//g, '-')}.png`, fullPage: true });
      }
    }
  });

  it('Resumo de hoje moves live when a visitor writes, and the oldest waiting conversation is one click away', async () => {
    await logIn(page, owner);
    await page.goto('/reports');
    await page.waitForURL('**/reports/overview');
    await page.getByRole('heading', { name: 'Resumo de hoje' }).waitFor();
    await until(() => value('stat-waiting'), '0');
    expect(await value('stat-total')).to.equal('1');
    expect(await value('stat-average-wait')).to.equal('-');
    const conv = await receiveInbound(api.deps, inboundMessage(widget, { identity: { externalId: 'visitante-rel', name: 'Lia Campos' } }));
    await until(() => value('stat-waiting'), '1');
    await page.getByTestId('oldest-waiting').getByRole('link', { name: /Lia Campos/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
  });

  it('Exportar › Exportar para Email shows SPEC §8 toast and the .xlsx and .csv arrive in the mailbox', async () => {
    await history();
    const { worker, running, connection } = await startExportWorker(api, `smtp://127.0.0.1:${api.mailbox.port}`);
    try {
      await logIn(page, owner);
      await page.goto('/reports/conversations');
      await until(() => value('card-new'), '3');
      await page.getByTestId('report-export').click();
      await page.getByRole('menuitem', { name: 'Exportar para Email' }).click();
      await page.getByText(`Relatório será enviado em breve para ${owner.email}`).waitFor();
      // The subject is MIME-encoded in the raw mail this mailbox keeps: the attachment's name identifies it.
      const mail = await api.mailbox.waitFor(owner.email, (m) => m.raw.includes('.xlsx'), 60_000);
      expect(mail.raw).to.match(/filename="?conversations-\d{8}-\d{8}\.xlsx/);
      expect(mail.raw).to.match(/filename="?conversations-\d{8}-\d{8}\.csv/);
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
    }
  });
});
