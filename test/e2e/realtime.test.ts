import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { topics } from '../../api/realtime/publisher';
import { logIn, signUp, toast } from './support';

describe('e2e: realtime in the app shell', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('connects over MQTT, toasts WorkspaceActivation, shows the expired-plan banner on subscription.expired', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    const live = page.getByTestId('live-indicator');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    expect(await live.getAttribute('aria-label')).to.equal('Conectado em tempo real');
    const workspaceId = await page.evaluate<number>("JSON.parse(localStorage.getItem('balcao.workspace')).workspaceId");

    await api.broker.publisher.publish(topics.workspace(workspaceId), 'WorkspaceActivation', { message: 'Seu canal foi ativado' });
    await toast(page, 'Seu canal foi ativado');

    expect(await page.getByText('Seu plano expirou').count()).to.equal(0);
    await api.broker.publisher.publish(topics.workspace(workspaceId), 'subscription.expired', { subscriptionId: 1 });
    await page.getByText(/^Seu plano expirou/).waitFor();
    await page.getByRole('link', { name: 'Atualizar Plano' }).click();
    await page.waitForURL('**/settings/billing/license');
  });

  it('marks the live connection off when the socket fails', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    // The broker goes away: the socket drops and every reconnect attempt fails.
    await api.broker.close();
    await page.locator('[data-testid="live-indicator"]:not([data-status="online"])').waitFor();
    expect(await page.getByTestId('live-indicator').getAttribute('aria-label')).to.be.oneOf(['Sem conexão em tempo real', 'Conectando em tempo real…']);
  });
});
