import { expect } from 'chai';
import type { Page, WebSocketRoute } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { inboundMessage, makeChannel, makeConversation, type TestChannel } from '../inbox/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { logIn } from './support';

/**
 * The app's MQTT connection (ui/src/realtime) dropped while a customer writes: a resumed session replays the
 * missed event (no refetch); a session the broker no longer has makes the inbox refetch (docs/realtime.md
 * "Reconnecting"). The drop is real: the page's WebSocket is routed through Playwright and closed.
 */
describe('e2e: the inbox after its realtime connection drops', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  let agent: TestOperator;
  let channel: TestChannel;
  let sockets: { page: WebSocketRoute; server: WebSocketRoute }[];
  let listFetches: number;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site', avatar: '#1570EF' });
    await makeConversation(api.deps, channel, { name: 'Bruno Lima', text: 'Primeira conversa' });
    sockets = [];
    listFetches = 0;
    await page.routeWebSocket(/\/mqtt$/, (ws) => {
      sockets.push({ page: ws, server: ws.connectToServer() });
    });
    page.on('request', (req) => {
      if (req.method() === 'GET' && new URL(req.url()).pathname === '/api/inbox') listFetches++;
    });
    await logIn(page, agent);
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    await page.getByRole('option').filter({ hasText: 'Primeira conversa' }).waitFor();
  });

  async function drop(): Promise<void> {
    const current = sockets[sockets.length - 1];
    await current.server.close();
    await current.page.close();
    await page.locator('[data-testid="live-indicator"]:not([data-status="online"])').waitFor();
  }

  const customerWrites = (text: string) => receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: `carla-${Date.now()}`, name: 'Carla Dias' }, content: [{ insert: `${text}\n` }] }));

  it('a short drop resumes the session: the message written meanwhile shows up, replayed, without refetching the list', async () => {
    await drop();
    const before = listFetches;
    await customerWrites('Chegou durante a queda');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor({ timeout: 20_000 });
    await page.getByRole('option').filter({ hasText: 'Chegou durante a queda' }).waitFor();
    expect(sockets.length, 'reconnected through a new socket').to.equal(2);
    await page.waitForTimeout(500);
    expect(listFetches - before, 'no refetch of the list').to.equal(0);
  });

  it('a drop the broker kept no session for (disconnectOperator): the inbox refetches and shows the message', async () => {
    expect(await api.broker.disconnectOperator(agent.workspaceId, agent.id)).to.be.greaterThan(0);
    await page.locator('[data-testid="live-indicator"]:not([data-status="online"])').waitFor();
    const before = listFetches;
    await customerWrites('Chegou sem sessão');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor({ timeout: 20_000 });
    await page.getByRole('option').filter({ hasText: 'Chegou sem sessão' }).waitFor();
    expect(listFetches - before, 'the list was refetched').to.be.greaterThan(0);
  });
});
