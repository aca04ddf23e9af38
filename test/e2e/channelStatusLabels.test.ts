import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { setChannelStatus } from '../../api/channels/channelStatus';
import { logIn } from './support';

/**
 * Issue 25: a status label never promises what does not happen. SPEC's 'Desconectado, tentando reconectar'
 * is shown only while a QR line reconnects by itself; a logged-out QR line asks for the QR again and a
 * Cloud line whose token Meta refused asks for a new token — on the channel list, live, and on the line
 * page. The statuses are written the way the QR handler and a refused send write them (setChannelStatus).
 */
describe('e2e: channel status labels say what the user must do', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;

  useAppPage((s) => ({ api, page } = s), () => ({ temporalTaskQueue: unique('e2e-status-labels') }));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
  });

  it('a QR line: reconnecting says so; logged out on the phone it asks for the QR again, on the list (live), the banner and the line page', async () => {
    await logIn(page, owner);
    const res = await api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: { name: 'Loja QR', phone: '+55 (11) 91234-5678' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const line = { id: res.body.data.id as number, workspaceId: owner.workspaceId };
    await setChannelStatus(api.deps, line, 'connected');

    await page.goto('/settings/channels');
    const listed = page.getByRole('row', { name: /Loja QR/ });
    await listed.getByText('Conectado').waitFor();
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();

    // The connection drops and the line reconnects with backoff: SPEC's text, now true.
    await setChannelStatus(api.deps, line, 'processing_channel', 'reconnecting');
    await listed.getByText('Desconectado, tentando reconectar').waitFor();

    // Logged out on the phone: nothing reconnects it, the label asks for the QR.
    await setChannelStatus(api.deps, line, 'disconnected', 'qr_logged_out');
    await listed.getByText('Desconectado: leia o QR Code de novo').waitFor();
    expect(await listed.getByText('tentando reconectar').count()).to.equal(0);
    await page.getByTestId('channel-disconnected-banner').filter({ hasText: 'Loja QR' }).waitFor();

    await page.goto(`/settings/channels/whatsapp/${line.id}`);
    await page.getByTestId('whatsapp-line-status').filter({ hasText: 'Desconectado: leia o QR Code de novo' }).waitFor();
  });

  it('a Cloud line whose token was revoked asks for a new token on the list and on the line page', async () => {
    const [row] = await api.deps.knex('channels')
      .insert({
        workspaceId: owner.workspaceId, platformId: 1, type: 'whatsapp', name: 'Loja Cloud', phone: '5511912340000', status: 'connected',
        config: JSON.stringify({ provider: 'cloud', phoneNumberId: '106540352242922', businessAccountId: '102290129340398', accessTokenSealed: 'selado', appSecretSealed: 'selado', verifyToken: 'verificar' }),
      })
      .returning('id');
    const line = { id: row.id as number, workspaceId: owner.workspaceId };
    await logIn(page, owner);
    await page.goto('/settings/channels');
    const listed = page.getByRole('row', { name: /Loja Cloud/ });
    await listed.getByText('Conectado').waitFor();
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();

    // A refused send or webhook disconnects it as every token channel: no reason named, the token's is kept.
    await setChannelStatus(api.deps, line, 'disconnected');
    await listed.getByText('Desconectado: o token foi revogado, informe um novo token').waitFor();

    await page.goto(`/settings/channels/whatsapp/${line.id}`);
    await page.getByTestId('whatsapp-line-status').filter({ hasText: 'Desconectado: o token foi revogado, informe um novo token' }).waitFor();
    expect(await page.getByText('tentando reconectar').count()).to.equal(0);
  });
});
