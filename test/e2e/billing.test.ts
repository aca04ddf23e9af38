import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { prepareWorker, until, type WorkerSetup } from '../channels/helpers';
import { makeChannel, makeConversation } from '../inbox/factories';
import { withAppWorker } from './whatsappSteps';
import { cutOff, logIn, newAccount, signUp, toast, VIEWPORTS, type Account } from './support';
import { readItf, widthsFromBars } from './billingItf';
import { topics } from '../../api/realtime/publisher';
import { DOCUMENT_MESSAGES } from '../../api/billing/document';

const money = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

/** The signed-up account's workspace and owner (a real signup: a trial subscription and its lifecycle workflow). */
async function ownerOf(api: TestApi, account: Account): Promise<{ ws: TestWorkspace; ownerId: number; token: string }> {
  const res = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const w = res.body.data.workspace;
  return { ws: { id: w.workspaceId, name: w.workspace }, ownerId: res.body.data.user.id, token: w.token };
}

async function makeCoupon(api: TestApi, percent = 20, charges = 3): Promise<string> {
  const code = unique('E2E').replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, 30);
  await api.deps.knex('coupons').insert({ code, percent, charges, billing: 'monthly' });
  return code;
}

/** Marks the page so a test can tell a live update from a reload (a reload loses it). */
const markPage = (page: Page) => page.evaluate("window.__billingMark = 'still here'");
const pageMark = (page: Page) => page.evaluate<string | undefined>('window.__billingMark');

async function expectNothingCutOff(page: Page, where: string): Promise<void> {
  expect(await cutOff(page), `cut off at 390 px on ${where}`).to.deep.equal([]);
}

describe('e2e: billing screens (issue 29) against the real billing API in test mode', function () {
  this.timeout(180_000);
  let api: TestApi;
  let page: Page;
  let setup: WorkerSetup;

  useAppPage((s) => ({ api, page } = s));
  // The subscription's lifecycle workflow applies a paid invoice: a worker runs beside the app, as in `npm start`.
  before(async () => {
    setup = await prepareWorker();
  });
  after(async () => {
    await setup?.connection.close();
  });
  beforeEach(async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  it('chooses Business with 2 extra agents and a coupon, pays by Pix in test mode, the page turns paid live and the invoice is a Recibo', async () => {
    const account = await signUp(api, newAccount());
    const { ws } = await ownerOf(api, account);
    // A second active member: Basic (1 agent) cannot hold the workspace.
    await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Beto Agente' });
    const code = await makeCoupon(api);

    await withAppWorker(api, setup, async () => {
      await logIn(page, account);
      await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
      await page.getByRole('menuitem', { name: 'Assinatura' }).click();
      await page.waitForURL('**/settings/billing/license');
      await page.getByRole('heading', { level: 1, name: 'Assinatura' }).waitFor();
      await page.getByTestId('test-mode').waitFor();
      expect(await page.getByTestId('license-summary').innerText()).to.contain('Avaliação');
      await page.getByRole('link', { name: 'Mudar plano' }).click();
      await page.waitForURL('**/settings/billing/subscription');
      await page.getByTestId('test-mode').waitFor();

      // Basic refuses the workspace's 2 agents, under the agents' field, and cannot be sent.
      await page.getByRole('radio', { name: /^Basic/ }).click();
      await page.locator('#extra-agents-helper-text', { hasText: 'Seu workspace tem 2 agentes ativos' }).waitFor();
      expect(await page.getByRole('button', { name: 'Assinar' }).isDisabled()).to.equal(true);

      // Business plus 2 agents: the total follows the choices.
      await page.getByRole('radio', { name: /^Business/ }).click();
      await page.getByRole('button', { name: 'Aumentar: Agentes adicionais' }).click();
      await page.getByRole('button', { name: 'Aumentar: Agentes adicionais' }).click();
      const total = page.getByTestId('quote-total');
      await total.filter({ hasText: '547,00' }).waitFor();

      // A code that does not exist clears the field and says why; the real one gives 20% off.
      await page.getByLabel('Cupom de desconto').fill('NAOEXISTE');
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await page.getByText('Cupom inválido.').waitFor();
      expect(await page.getByLabel('Cupom de desconto').inputValue()).to.equal('');
      await page.getByLabel('Cupom de desconto').fill(code.toLowerCase());
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await toast(page, 'Desconto aplicado.');
      await page.getByTestId('coupon-applied').waitFor();
      await total.filter({ hasText: '437,60' }).waitFor();
      expect(money(await page.getByTestId('quote-discount').innerText())).to.contain('− R$ 109,40');
      expect(money(await page.getByTestId('quote').innerText())).to.contain('R$ 98,00');

      // Pix; the first subscription asks the payer's CPF/CNPJ, checked by its digits before anything is sent.
      await page.getByRole('radio', { name: 'Pix' }).check();
      const document = page.getByLabel('CPF ou CNPJ do pagador');
      await document.fill('11111111112');
      expect(await document.inputValue()).to.equal('111.111.111-12');
      await page.getByRole('button', { name: 'Assinar' }).click();
      await page.getByText(DOCUMENT_MESSAGES.cpf).waitFor();
      expect(page.url()).to.contain('/settings/billing/subscription');
      await document.fill('52998224725');
      await page.getByRole('button', { name: 'Assinar' }).click();
      await page.waitForURL(/\/settings\/billing\/payment\/\d+$/);
      const invoiceId = Number(page.url().split('/').pop());

      // The Pix: QR image, the copy-and-paste code with its copy button, the expiry, 'Modo de teste'.
      await page.getByTestId('pix-payment').waitFor();
      expect(money(await page.getByTestId('payment-amount').innerText())).to.contain('R$ 437,60');
      const qrLoaded = await page.getByTestId('pix-qr').evaluate((img: any) => img.complete === true && img.naturalWidth > 0);
      expect(qrLoaded, 'QR image decoded').to.equal(true);
      const brCode = await page.locator('#pix-code').inputValue();
      expect(brCode).to.match(/^000201/);
      await page.getByRole('button', { name: 'Copiar Pix copia e cola' }).click();
      await toast(page, 'Copiado para clipboard');
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(brCode);
      await page.getByText(/^Válido até \d{2}\/\d{2}\/\d{4}/).waitFor();
      await page.getByTestId('test-mode').waitFor();

      // Paid elsewhere (the bank, here the test mode's simulation called by the api): the page turns paid by itself.
      await markPage(page);
      const detail = await api.request('GET', `/api/payment/invoices/${invoiceId}`, { token: (await ownerOf(api, account)).token });
      const transactionId = detail.body.data.transactions[0].id as number;
      const simulated = await api.request('POST', `/api/payment/invoices/${invoiceId}/transactions/${transactionId}/simulate`, { token: (await ownerOf(api, account)).token });
      expect(simulated.status, JSON.stringify(simulated.body)).to.equal(200);
      await page.getByText('Pagamento confirmado!').waitFor();
      expect(await pageMark(page), 'turned paid without a reload').to.equal('still here');

      await page.getByRole('link', { name: 'Ver recibo' }).click();
      await page.waitForURL(`**/invoices/${invoiceId}/${transactionId}`);
      await page.getByRole('heading', { level: 1, name: 'Recibo' }).waitFor();
      await page.getByTestId('paid-stamp').filter({ hasText: 'PAGO' }).waitFor();
      const receipt = money(await page.getByTestId('invoice-document').innerText());
      expect(receipt).to.contain(`Cupom ${code} (20%)`);
      expect(receipt).to.contain('R$ 437,60');
      expect(receipt).to.contain('529.982.247-25');
      await page.getByTestId('test-mode').waitFor();
      // Printed, only the document shows: the app's header is hidden.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header').first().evaluate((el: any) => (globalThis as any).getComputedStyle(el).visibility as string)).to.equal('hidden');
      expect(await page.getByTestId('invoice-document').evaluate((el: any) => (globalThis as any).getComputedStyle(el).visibility as string)).to.equal('visible');
      await page.emulateMedia({ media: 'screen' });

      // The list: the paid invoice; the license page: Business with 7 agents, then canceled with no refund.
      await page.getByRole('link', { name: 'Voltar para as faturas' }).click();
      await page.waitForURL('**/settings/billing/invoices');
      const row = page.getByRole('row').filter({ hasText: 'Business (mensal)' });
      await row.filter({ hasText: 'Pago' }).waitFor();
      expect(money(await row.innerText())).to.contain('R$ 437,60');
      await page.goto('/settings/billing/license');
      await until(async () => (await page.getByTestId('license-summary').innerText()).includes('Business'));
      const summary = await page.getByTestId('license-summary').innerText();
      expect(summary).to.match(/Agentes\s+7/);

      // An upgrade today is priced with the credit of the unused time; a smaller plan waits for the period end.
      await page.getByRole('link', { name: 'Mudar plano' }).click();
      await page.waitForURL('**/settings/billing/subscription');
      await page.getByRole('radio', { name: /^Enterprise/ }).click();
      await page.getByTestId('quote-credit').waitFor();
      await page.getByRole('radio', { name: /^Business/ }).click();
      for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Diminuir: Agentes adicionais' }).click();
      await page.getByTestId('quote-period-end').filter({ hasText: /^A mudança vale a partir de \d{2}\/\d{2}\/\d{4}/ }).waitFor();
      await page.getByRole('button', { name: 'Confirmar mudança' }).click();
      await toast(page, 'Mudança agendada: o novo plano vale a partir de');
      await page.waitForURL('**/settings/billing/license');
      await page.getByTestId('scheduled-change').filter({ hasText: 'plano Business' }).waitFor();

      await page.getByRole('button', { name: 'Cancelar assinatura' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.innerText()).to.contain('Não há reembolso');
      await dialog.getByRole('button', { name: 'Cancelar assinatura' }).click();
      await page.getByText(/^Assinatura cancelada: o acesso continua até/).waitFor();
    });
  });

  for (const viewport of VIEWPORTS) {
    it(`the expired plan: banner and composer say so, 'Atualizar Plano' leads to paying by boleto, and both go away once paid (${viewport.name})`, async () => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const phone = viewport.width < 600;
      const account = await signUp(api, newAccount());
      const { ws, ownerId } = await ownerOf(api, account);
      await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ expiresAt: new Date(Date.now() - 3 * 86_400_000), status: 'expired' });
      const channel = await makeChannel(api.deps.knex, ws, 'widget', { description: 'Site' });
      const conversation = await makeConversation(api.deps, channel, { name: 'Cliente Expirado', operatorId: ownerId });

      await withAppWorker(api, setup, async () => {
        await logIn(page, account);
        const banner = page.getByTestId('expired-banner');
        await banner.waitFor();
        expect(await banner.innerText()).to.contain('Seu plano expirou...');
        // The composer: replies suspended and why (the api refuses them with 402), private notes still open.
        await page.goto(`/inbox/all/${conversation.conversationId}`);
        await page.getByTestId('composer-plan-expired').waitFor();
        const composer = page.getByRole('form', { name: 'Escrever mensagem' });
        expect(await page.getByRole('combobox', { name: 'Responder' }).isDisabled()).to.equal(true);
        await composer.getByRole('button', { name: 'Nota privada' }).click();
        expect(await page.getByRole('combobox', { name: 'Nota privada' }).isDisabled()).to.equal(false);
        expect(await page.getByTestId('composer-plan-expired').count()).to.equal(0);

        await banner.getByRole('link', { name: 'Atualizar Plano' }).click();
        await page.waitForURL('**/settings/billing/license');
        await page.getByTestId('license-summary').filter({ hasText: 'Expirada' }).waitFor();
        if (phone) await expectNothingCutOff(page, 'license');
        await page.getByRole('link', { name: 'Mudar plano' }).click();
        await page.waitForURL('**/settings/billing/subscription');
        await page.getByRole('radio', { name: /^Enterprise/ }).click();
        await page.getByTestId('quote-total').filter({ hasText: '799,00' }).waitFor();
        await page.getByRole('radio', { name: 'Boleto' }).check();
        await page.getByLabel('CPF ou CNPJ do pagador').fill('11444777000161');
        if (phone) await expectNothingCutOff(page, 'subscription');
        // The custom plan: the contact dialog with two phones and an e-mail.
        await page.getByRole('button', { name: 'Fale conosco' }).click();
        const contact = page.getByRole('dialog', { name: 'Plano personalizado' });
        expect(await contact.getByTestId('contact-phone').count()).to.equal(2);
        await contact.getByTestId('contact-email').waitFor();
        await contact.getByRole('button', { name: 'Fechar' }).click();
        await page.getByRole('button', { name: 'Assinar' }).click();
        await page.waitForURL(/\/settings\/billing\/payment\/\d+$/);
        const invoiceId = Number(page.url().split('/').pop());

        // The boleto: the line in groups with its copy button, the barcode read back from the SVG, the slip.
        await page.getByTestId('boleto-payment').waitFor();
        const line = await page.locator('#boleto-line').inputValue();
        expect(line).to.match(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
        const svg = page.getByTestId('boleto-payment').getByTestId('boleto-barcode');
        const bars = await svg.evaluate((el: any) =>
          [...el.querySelectorAll('rect')].map((r: any) => ({ x: Number(r.getAttribute('x')), width: Number(r.getAttribute('width')) })),
        );
        const stored = await api.deps.knex('invoice_transactions').where({ invoiceId }).first();
        const barcode = (stored.paymentData as { barcode: string }).barcode;
        expect(readItf(widthsFromBars(bars)), 'the drawn barcode reads back as the boleto').to.equal(barcode);
        await page.getByText(/^Vencimento: \d{2}\/\d{2}\/\d{4}$/).waitFor();
        if (phone) await expectNothingCutOff(page, 'payment');
        await page.getByRole('button', { name: 'Imprimir boleto' }).click();
        const slip = page.getByTestId('boleto-slip');
        await slip.waitFor();
        expect((await slip.innerText()).replace(/\D/g, '')).to.contain(line.replace(/\D/g, ''));
        await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).click();

        await markPage(page);
        await page.getByRole('button', { name: 'Simular pagamento' }).click();
        await page.getByTestId('payment-paid').waitFor();
        // The renewed plan reaches the session through subscription.updated: no banner, no reload.
        await banner.waitFor({ state: 'detached', timeout: 20_000 });
        expect(await pageMark(page)).to.equal('still here');
        await page.getByRole('link', { name: 'Ver recibo' }).click();
        await page.getByRole('heading', { level: 1, name: 'Recibo' }).waitFor();
        if (phone) await expectNothingCutOff(page, 'invoice');
        await page.goto('/settings/billing/invoices');
        if (phone) {
          await page.getByTestId('resource-cards').waitFor();
          await expectNothingCutOff(page, 'invoices');
        } else {
          await page.getByRole('table').waitFor();
        }
        await page.goto(`/inbox/all/${conversation.conversationId}`);
        await page.getByTestId('conversation').waitFor();
        expect(await page.getByRole('combobox', { name: 'Responder' }).isDisabled()).to.equal(false);
        expect(await page.getByTestId('composer-plan-expired').count()).to.equal(0);
        expect(await page.getByTestId('expired-banner').count()).to.equal(0);
      });
    });
  }

  it('takes the subscription of subscription.updated into the session: the expired banner goes away without a reload', async () => {
    const account = await signUp(api, newAccount());
    const { ws } = await ownerOf(api, account);
    const past = new Date(Date.now() - 86_400_000);
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ expiresAt: past, status: 'expired' });
    await logIn(page, account);
    await page.getByTestId('expired-banner').waitFor();
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    await markPage(page);
    const sub = await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).first();
    const renewed = { id: sub.id, license: 'business', status: 'active', expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() };
    await api.broker.publisher.publish(topics.workspace(ws.id), 'subscription.updated', { subscription: renewed });
    await page.getByTestId('expired-banner').waitFor({ state: 'detached' });
    expect(await pageMark(page)).to.equal('still here');
    const stored = await page.evaluate<{ status: string; license: string }>("JSON.parse(localStorage.getItem('balcao.workspace')).subscription");
    expect(stored).to.include({ status: 'active', license: 'business' });
  });

  it('during the grace of an unpaid renewal no banner shows; when the lifecycle expires the plan, the banner does, live', async () => {
    const account = await signUp(api, newAccount());
    const { ws } = await ownerOf(api, account);
    // Past its end, within the 3 days of grace (docs/billing.md "Grace period"): the plan still works.
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ expiresAt: new Date(Date.now() - 86_400_000), graceEndsAt: new Date(Date.now() + 2 * 86_400_000), status: 'active' });
    await logIn(page, account);
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    expect(await page.getByTestId('expired-banner').count()).to.equal(0);
    // The grace ends unpaid: the lifecycle expires the plan and says so (subscription.expired).
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ graceEndsAt: new Date(Date.now() - 60_000), status: 'expired' });
    await api.broker.publisher.publish(topics.workspace(ws.id), 'subscription.expired', {});
    await page.getByTestId('expired-banner').waitFor();
  });

  it("a member of level 6 to 8 opens 'Assinatura' from the user menu and only reads it", async () => {
    const account = await signUp(api, newAccount());
    const { ws } = await ownerOf(api, account);
    const master: TestOperator = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6, { name: 'Mara Master' });
    await logIn(page, master);
    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Assinatura' }).click();
    await page.waitForURL('**/settings/billing/license');
    await page.getByTestId('license-summary').waitFor();
    await page.getByTestId('billing-read-only').waitFor();
    for (const name of ['Mudar plano', 'Cancelar assinatura', 'Assinar novo plano']) expect(await page.getByRole('link', { name }).or(page.getByRole('button', { name })).count(), name).to.equal(0);
    await page.getByTestId('usage-agents').waitFor();
    // The settings tab is 9+: not in the settings menu, and the change-plan page refuses.
    expect(await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Assinatura' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Ver faturas' }).click();
    await page.waitForURL('**/settings/billing/invoices');
    await page.getByText('Nenhuma fatura ainda.').waitFor();
    await page.goto('/settings/billing/subscription');
    await page.getByText('Você não tem permissão para acessar esta página.').waitFor();
  });
});
