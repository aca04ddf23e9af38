import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { localOf } from '../../api/schedules/recurrence';
import { logIn, toast } from './support';

const ZONE = 'America/Sao_Paulo';
const later = (ms: number) => localOf(new Date(Date.now() + ms), ZONE);

describe('e2e: scheduled messages — schedule from the composer, see it in the list, cancel one', function () {
  this.timeout(180_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let agent: TestOperator;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Agente' });
  });

  it('an agent schedules what she typed for a date and time, weekly; it is listed in the conversation and on /schedules, where she cancels another one', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await makeConversation(api.deps, channel, { name: 'Lia Campos' });
    const other = await makeConversation(api.deps, channel, { name: 'Rui Prado' });
    // One already scheduled by her in another conversation, through the API.
    const existing = await api.request('POST', '/api/schedules', { token: agent.token, body: { conversationId: other.conversationId, sendAt: later(26 * 3_600_000), text: 'Seu pedido chega amanhã.' } });
    expect(existing.status, JSON.stringify(existing.body)).to.equal(201);

    await logIn(page, agent);
    await page.getByRole('option', { name: /Lia Campos/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
    await page.getByRole('combobox', { name: 'Responder' }).fill('Olá {{primeiro_nome}}, seu bolo fica pronto hoje!');
    await page.getByRole('button', { name: 'Agendar', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Agendar mensagem' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('schedule-text').inputValue()).to.equal('Olá {{primeiro_nome}}, seu bolo fica pronto hoje!');
    await dialog.getByText('Nenhuma mensagem agendada nesta conversa.').waitFor();
    const sendAt = later(3 * 3_600_000);
    await dialog.getByTestId('schedule-send-at').fill(sendAt);
    await dialog.getByRole('combobox', { name: 'Repetir' }).click();
    await page.getByRole('option', { name: 'Toda semana' }).click();
    await dialog.getByTestId('schedule-next').filter({ hasText: 'Próximos envios' }).waitFor();
    await dialog.getByTestId('schedule-submit').click();
    await toast(page, 'Mensagem agendada.');
    await dialog.waitFor({ state: 'detached' });

    const row = await api.deps.knex('scheduled_messages').where({ workspaceId: ws.id, customerPlatformId: conv.conversationId }).first();
    expect(row).to.include({ state: 'scheduled', startsLocal: sendAt, repeat: 'weekly', text: 'Olá {{primeiro_nome}}, seu bolo fica pronto hoje!', operatorId: agent.id });
    // What was handed over leaves the reply box.
    expect(await page.getByRole('combobox', { name: 'Responder' }).inputValue()).to.equal('');

    // The conversation's list, from the same button.
    await page.getByRole('button', { name: 'Agendar', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Agendar mensagem' });
    const item = again.getByTestId('conversation-schedule');
    await item.filter({ hasText: 'Olá {{primeiro_nome}}' }).waitFor();
    expect(await item.getByTestId('schedule-state').innerText()).to.equal('Agendada');
    await again.getByRole('link', { name: 'Ver todos os agendamentos' }).click();

    // The workspace-wide list: both, soonest first; she cancels the other one.
    await page.waitForURL('**/schedules');
    const rows = page.getByTestId('schedule-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).to.equal(2);
    expect(await rows.nth(0).innerText()).to.include('Lia Campos');
    expect(await rows.nth(1).innerText()).to.include('Rui Prado');
    await rows.nth(1).getByTestId('schedule-cancel').click();
    await page.getByRole('dialog', { name: 'Cancelar agendamento?' }).getByTestId('schedule-cancel-confirm').click();
    await toast(page, 'Agendamento cancelado.');
    await rows.nth(1).getByTestId('schedule-state').filter({ hasText: 'Cancelada' }).waitFor();
    expect(await rows.nth(1).getByTestId('schedule-cancel').count()).to.equal(0);
    expect((await api.deps.knex('scheduled_messages').where({ id: existing.body.data.id }).first()).state).to.equal('canceled');

    // The state filter.
    await page.getByRole('combobox', { name: 'Situação' }).click();
    await page.getByRole('option', { name: 'Cancelada' }).click();
    await page.waitForURL('**/schedules?state=canceled');
    await page.getByTestId('schedules-count').filter({ hasText: '1 agendamento' }).waitFor();
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText()).to.include('Rui Prado');
  });

  it('a sent scheduled message shows in the conversation as scheduled by whom; the list is reachable from the header and says when it is empty', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await makeConversation(api.deps, channel, { name: 'Bia Nunes' });
    // What the scheduled-message workflow stores (its send is tested in test/workflows/scheduledMessage.test.ts).
    await api.deps.knex('messages').insert({
      workspaceId: ws.id,
      customerPlatformId: conv.conversationId,
      callId: conv.callId,
      content: JSON.stringify([{ insert: 'Bom dia, Bia!\n' }]),
      text: 'Bom dia, Bia!',
      type: 0,
      status: 2,
      sender: 'operator',
      operatorId: agent.id,
      extraData: JSON.stringify({ scheduled: { id: 1, by: { id: agent.id, name: 'Ana Agente' } } }),
    });
    await logIn(page, agent);
    await page.getByRole('option', { name: /Bia Nunes/ }).click();
    await page.getByTestId('message-scheduled').filter({ hasText: 'Agendada por Ana Agente' }).waitFor();

    await page.getByRole('link', { name: 'Agendamentos' }).click();
    await page.waitForURL('**/schedules');
    await page.getByTestId('schedules-empty').filter({ hasText: 'Nenhum agendamento encontrado.' }).waitFor();
  });
});
