import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { setChannelStatus } from '../../api/channels/channelStatus';
import { logIn, toast } from './support';

/**
 * e2e of the WhatsApp screens (issue 12) without WhatsApp: the QR line's connection workflow is not run
 * (its own task queue has no worker), so the test plays the socket's part by writing what the workflow
 * writes — the pending QR in whatsapp_connections and the status through setChannelStatus (channel.status).
 */
describe('e2e: WhatsApp screens (power-ups, QR reading modal, line page with live status)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;

  useAppPage((s) => ({ api, page } = s), () => ({ temporalTaskQueue: unique('e2e-wa-screens') }));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
  });

  const lineRow = () => api.deps.knex('channels').where({ workspaceId: owner.workspaceId, type: 'whatsapp' }).first();

  it('adds a number from /power-ups: Número salvo, the QR modal draws the polled QR at 250 px and closes by itself once connected', async () => {
    await logIn(page, owner);
    await page.goto('/power-ups');
    await page.getByRole('heading', { name: 'Complementos' }).waitFor();
    expect(await page.getByRole('link', { name: /Facebook/ }).getAttribute('href')).to.equal('/power-ups/facebook');
    // Telegram works (issue 13): its card leads to adding a bot, with no 'Funcionalidade em desenvolvimento!'.
    expect(await page.getByRole('link', { name: /Telegram/ }).getAttribute('href')).to.equal('/settings/channels/add/telegram');
    expect(await page.getByText('Funcionalidade em desenvolvimento!').count()).to.equal(0);
    await page.getByRole('link', { name: /WhatsApp/ }).click();
    await page.waitForURL('**/power-ups/whatsapp');
    await page.getByText('Nenhum número de WhatsApp ainda').waitFor();
    await page.getByRole('link', { name: 'Adicionar número' }).click();
    await page.waitForURL('**/power-ups/whatsapp/new');

    // SPEC §5: the phone needs DDI, DDD and the extra 9.
    await page.getByLabel(/^Nome/).fill('Loja centro');
    await page.getByLabel(/^Número/).pressSequentially('551112345678');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Número inválido. O número precisa incluir: DDI, DDD e o 9 extra').waitFor();
    await page.getByLabel(/^Número/).fill('');
    await page.getByLabel(/^Número/).pressSequentially('5511912345678');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Número salvo');

    // The modal opens at once; no QR yet (the connection is starting).
    const modal = page.getByRole('dialog', { name: 'Leia o QR Code' });
    await modal.waitFor();
    await modal.getByRole('status').waitFor();
    const row = await lineRow();
    expect(row).to.include({ status: 'qr_code', phone: '5511912345678' });

    // The socket reports a QR: the next poll (every 3 s) draws it.
    const qr = '2@Zx8bQm0uYk1n4kq3Jv9Y1c2d3e4f5g6h7i8j9k0,AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef=,QkFMQ0FPLWtleQ==,c2VjcmV0';
    await api.deps.knex('whatsapp_connections').insert({ workspaceId: row.workspaceId, channelId: row.id, qrcode: qr, qrcodeAt: new Date() });
    const drawn = modal.getByTestId('whatsapp-qrcode');
    await drawn.waitFor({ timeout: 10_000 });
    expect(await drawn.getAttribute('data-qrcode')).to.equal(qr);
    const svg = drawn.locator('svg');
    expect(await svg.getAttribute('width')).to.equal('250');
    expect(await svg.getAttribute('height')).to.equal('250');

    // The phone links: the QR is cleared and the line connects; the modal closes by itself.
    await api.deps.knex('whatsapp_connections').where({ channelId: row.id }).update({ qrcode: null });
    await setChannelStatus(api.deps, row, 'connected');
    await toast(page, 'Whatsapp conectado!');
    await modal.waitFor({ state: 'detached', timeout: 10_000 });

    await page.goto('/power-ups/whatsapp');
    const listed = page.getByRole('row', { name: /Loja centro/ });
    await listed.getByText('+55 (11) 91234-5678').waitFor();
    await listed.getByText('Conectado').waitFor();
  });

  it('a second line on a one-line plan is refused with the limit named and a way to Assinatura', async () => {
    await api.deps.knex('subscriptions').insert({ workspaceId: owner.workspaceId, license: 'business', status: 'active', agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 44_900, expiresAt: new Date(Date.now() + 20 * 86_400_000) });
    const first = await api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: { name: 'Primeira', phone: '+55 (11) 91234-5678' } });
    expect(first.status).to.equal(201);
    await logIn(page, owner);
    await page.goto('/power-ups/whatsapp/new');
    await page.getByLabel(/^Nome/).fill('Segunda');
    await page.getByLabel(/^Número/).pressSequentially('5511912340000');
    await page.getByRole('button', { name: 'Salvar' }).click();
    const refusal = page.getByTestId('plan-limit-toast');
    await refusal.waitFor();
    expect(await refusal.innerText()).to.contain('Seu plano permite 1 linha de WhatsApp e o limite foi atingido.');
    await refusal.locator('a', { hasText: 'Assinatura' }).click();
    await page.waitForURL('**/settings/billing/license');
    expect(await api.deps.knex('channels').where({ workspaceId: owner.workspaceId, type: 'whatsapp' }).count({ n: '*' }).first().then((r) => Number(r?.n))).to.equal(1);
  });

  it('the line page shows the status live, edits name and groups but not the phone, and reopens the QR modal while a QR waits', async () => {
    await logIn(page, owner);
    const res = await api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: { name: 'Suporte', phone: '+55 (11) 91234-5678' } });
    expect(res.status).to.equal(201);
    const row = await lineRow();
    await setChannelStatus(api.deps, row, 'connected');

    await page.goto('/settings/channels');
    const listed = page.getByRole('row', { name: /Suporte/ });
    await listed.getByText('Conectado').waitFor();
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    // Live on the list: the line drops to a pending QR.
    await setChannelStatus(api.deps, row, 'qr_code');
    await listed.getByText('Necessário ler QR-Code').waitFor();

    await listed.click();
    await page.waitForURL(`**/settings/channels/whatsapp/${row.id}`);
    const status = page.getByTestId('whatsapp-line-status');
    await status.filter({ hasText: 'Necessário ler QR-Code' }).waitFor();
    await page.getByText('Esta linha aguarda a leitura do QR Code.').waitFor();
    expect(await page.getByLabel(/^Número/).inputValue()).to.equal('+55 (11) 91234-5678');
    expect(await page.getByLabel(/^Número/).isDisabled()).to.equal(true);

    await page.getByRole('alert').getByRole('button', { name: 'Ler QR Code' }).click();
    const modal = page.getByRole('dialog', { name: 'Leia o QR Code' });
    await modal.waitFor();
    await modal.getByRole('button', { name: 'Fechar' }).click();
    await modal.waitFor({ state: 'detached' });

    // Live on the page: connected.
    await setChannelStatus(api.deps, row, 'connected');
    await status.filter({ hasText: 'Conectado' }).waitFor();

    await page.getByLabel(/^Nome/).fill('Suporte 24h');
    await page.getByLabel('Receber mensagens de grupos').check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Linha de WhatsApp salva');
    const saved = await lineRow();
    expect(saved).to.include({ name: 'Suporte 24h', allowGroups: true, phone: '5511912345678' });
  });
});
