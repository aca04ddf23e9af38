import { expect } from 'chai';
import { startTestApi, type TestApi } from '../../../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../../../helpers/factories';
import { workflowIds } from '../../../../workflows/ids';
import { makeQrLine, type TestQrLine } from './helpers';

describe('WhatsApp QR lines: the reading modal (qrcode) and Reiniciar (restart) routes', function () {
  this.timeout(60_000);
  let api: TestApi;
  let owner: TestOperator;
  let line: TestQrLine;
  const started: string[] = [];

  before(async () => {
    // A queue no worker polls: the connection workflows these routes start never open a socket here.
    api = await startTestApi({ temporalTaskQueue: unique('wa-qr-routes') });
  });
  after(async () => {
    const client = await api.deps.temporal.client();
    for (const id of started) await client.workflow.getHandle(id).terminate().catch(() => undefined);
    await api?.close();
  });
  beforeEach(async () => {
    line = await makeQrLine(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, { id: line.workspaceId, name: 'Loja' }, 10);
  });

  const describeRun = async (channelId: number) => {
    const client = await api.deps.temporal.client();
    return client.workflow.getHandle(workflowIds.channel(channelId)).describe();
  };

  it('GET qrcode answers the pending QR and the line status, then null once the phone linked', async () => {
    await api.deps.knex('channels').where({ id: line.channelId }).update({ status: 'qr_code' });
    await api.deps.knex('whatsapp_connections').insert({ workspaceId: line.workspaceId, channelId: line.channelId, qrcode: '2@qr,chave,id,adv', qrcodeAt: new Date() });
    const res = await api.request('GET', `/api/integrations/whatsapp/qrcode/${line.channelId}`, { token: owner.token });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { qrcode: '2@qr,chave,id,adv', status: 'qr_code' } });

    await api.deps.knex('whatsapp_connections').where({ channelId: line.channelId }).update({ qrcode: null });
    await api.deps.knex('channels').where({ id: line.channelId }).update({ status: 'connected' });
    const linked = await api.request('GET', `/api/integrations/whatsapp/qrcode/${line.channelId}`, { token: owner.token });
    expect(linked.body).to.deep.equal({ data: { qrcode: null, status: 'connected' } });
  });

  it("another workspace's line is a 404; below level 6 is a 403", async () => {
    const other = await makeWorkspace(api.deps.knex);
    const stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    expect((await api.request('GET', `/api/integrations/whatsapp/qrcode/${line.channelId}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('POST', '/api/integrations/restart', { token: stranger.token, body: { id: line.channelId } })).status).to.equal(404);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, { id: line.workspaceId, name: 'Loja' }, 3);
    expect((await api.request('GET', `/api/integrations/whatsapp/qrcode/${line.channelId}`, { token: agent.token })).status).to.equal(403);
    expect((await api.request('POST', '/api/integrations/restart', { token: agent.token, body: { id: line.channelId } })).status).to.equal(403);
  });

  it('restart shows restarting_channel and signal-starts channel:{id}; a second restart reuses the running workflow', async () => {
    const res = await api.request('POST', '/api/integrations/restart', { token: owner.token, body: { id: line.channelId } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ data: { id: line.channelId, status: 'restarting_channel' } });
    started.push(workflowIds.channel(line.channelId));
    const first = await describeRun(line.channelId);
    expect(first).to.include({ type: 'whatsappConnection', taskQueue: api.config.temporalTaskQueue });
    expect(first.status.name).to.equal('RUNNING');
    expect((await api.deps.knex('channels').where({ id: line.channelId }).first('status')).status).to.equal('restarting_channel');

    await api.request('POST', '/api/integrations/restart', { token: owner.token, body: { id: line.channelId } });
    expect((await describeRun(line.channelId)).runId).to.equal(first.runId);
  });

  it('a Cloud API line has nothing to restart; a body without id is a field error', async () => {
    const res = await api.request('POST', '/api/integrations/whatsapp', {
      token: owner.token,
      body: { name: 'Oficial', phone: '+55 (11) 91234-5678', provider: 'cloud', phoneNumberId: '1', businessAccountId: '2', accessToken: 'EAAG-x', appSecret: 's' },
    });
    expect(res.status).to.equal(201);
    const cloud = await api.request('POST', '/api/integrations/restart', { token: owner.token, body: { id: res.body.data.id } });
    expect(cloud.status).to.equal(400);
    expect(cloud.body.errors[0]).to.include({ type: 'ValidationError', key: 'id' });
    const empty = await api.request('POST', '/api/integrations/restart', { token: owner.token, body: {} });
    expect(empty.status).to.equal(400);
    expect(empty.body.errors[0]).to.include({ key: 'id' });
  });

  it('adding a QR line starts its connection workflow (the QR comes from there)', async () => {
    const res = await api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: { name: 'Loja', phone: '+55 (11) 91234-5678' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    started.push(workflowIds.channel(res.body.data.id));
    const run = await describeRun(res.body.data.id);
    expect(run.type).to.equal('whatsappConnection');
    expect(run.status.name).to.equal('RUNNING');
  });
});
