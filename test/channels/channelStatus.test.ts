import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { setChannelStatus } from '../../api/channels/channelStatus';
import type { Publisher } from '../../api/realtime/publisher';

describe('channel status reasons: a down channel says what the user must do', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let events: { topic: string; event: string; data: unknown }[];
  let deps: { knex: TestApi['deps']['knex']; publisher: Publisher };

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    events = [];
    deps = { knex: api.deps.knex, publisher: { ...api.deps.publisher, publish: async (topic: string, event: string, data: unknown) => (events.push({ topic, event, data }), true) } as Publisher };
  });

  async function channel(type: string, config: Record<string, unknown> = {}): Promise<{ id: number; workspaceId: number }> {
    const platformId = { whatsapp: 1, telegram: 2, facebook: 3 }[type] ?? 1;
    const [row] = await api.deps.knex('channels').insert({ workspaceId: ws.id, platformId, type, name: `Canal ${type}`, status: 'connected', config: JSON.stringify(config) }).returning('id');
    return { id: row.id, workspaceId: ws.id };
  }
  const listed = async (id: number) => {
    const res = await api.request('GET', '/api/integrations/channel', { token: owner.token });
    expect(res.status).to.equal(200);
    return (res.body.data as { id: number; status: string; statusReason: string | null }[]).find((c) => c.id === id);
  };

  it('a Cloud line disconnected by a refused token says the token was revoked, in the channel list and in channel.status', async () => {
    const line = await channel('whatsapp', { provider: 'cloud' });
    expect(await setChannelStatus(deps, line, 'disconnected')).to.equal(true);
    expect(await listed(line.id)).to.include({ status: 'disconnected', statusReason: 'token_revoked' });
    expect(events).to.deep.equal([{ topic: `ws/${ws.id}/all`, event: 'channel.status', data: { id: line.id, status: 'disconnected', statusReason: 'token_revoked' } }]);
    // A new token connects it again: the reason goes with the status.
    await setChannelStatus(deps, line, 'connected');
    expect(await listed(line.id)).to.include({ status: 'connected', statusReason: null });
  });

  it('a QR line that stops without its handler naming why is shown stopped, never as a revoked token', async () => {
    const line = await channel('whatsapp', { provider: 'qr' });
    await setChannelStatus(deps, line, 'disconnected');
    expect(await listed(line.id)).to.include({ status: 'disconnected', statusReason: 'qr_stopped' });
  });

  it('a reason named for the same status is written and announced; the same status without a reason keeps it', async () => {
    const line = await channel('whatsapp', { provider: 'qr' });
    await setChannelStatus(deps, line, 'processing_channel');
    expect(await setChannelStatus(deps, line, 'processing_channel', 'reconnecting')).to.equal(true);
    expect(await listed(line.id)).to.include({ status: 'processing_channel', statusReason: 'reconnecting' });
    expect(await setChannelStatus(deps, line, 'processing_channel')).to.equal(false);
    expect(await setChannelStatus(deps, line, 'processing_channel', 'reconnecting')).to.equal(false);
    expect(await listed(line.id)).to.include({ statusReason: 'reconnecting' });
    expect(events.map((e) => (e.data as { statusReason: string | null }).statusReason)).to.deep.equal([null, 'reconnecting']);
  });
});
