import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { defaultDays } from '../../api/businessHours/schedule';

describe('business hours resource /api/business-hours', () => {
  let api: TestApi;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  it('creates with the SPEC defaults (every day active, the first two slots), updates and deletes', async () => {
    const created = await api.request('POST', '/api/business-hours', { token: master.token, body: { name: 'Comercial' } });
    expect(created.status).to.equal(201);
    expect(created.body.data.name).to.equal('Comercial');
    expect(created.body.data.days).to.deep.equal(defaultDays());

    const days = defaultDays();
    days.sat = { active: false, hours: [] };
    days.mon.hours = [{ startHourIndex: 36, endHourIndex: 48 }, { startHourIndex: 52, endHourIndex: 96 }];
    const id = created.body.data.id;
    const updated = await api.request('PUT', `/api/business-hours/${id}`, { token: owner.token, body: { ...created.body.data, name: 'Semana', days } });
    expect(updated.status).to.equal(200);
    expect(updated.body.data).to.deep.include({ name: 'Semana', days });

    const read = await api.request('GET', `/api/business-hours/${id}`, { token: owner.token });
    expect(read.status).to.equal(200);
    expect(read.body.data.days).to.deep.equal(days);

    const del = await api.request('DELETE', `/api/business-hours/${id}`, { token: owner.token });
    expect(del.status).to.equal(200);
    expect((await api.request('GET', `/api/business-hours/${id}`, { token: owner.token })).status).to.equal(404);
  });

  it('rejects a missing name, a start not before its end, overlapping ranges and slots past 96, all at once', async () => {
    const days = defaultDays();
    days.tue.hours = [{ startHourIndex: 10, endHourIndex: 10 }];
    days.wed.hours = [{ startHourIndex: 10, endHourIndex: 20 }, { startHourIndex: 19, endHourIndex: 30 }];
    days.thu.hours = [{ startHourIndex: 90, endHourIndex: 97 }];
    const res = await api.request('POST', '/api/business-hours', { token: owner.token, body: { name: ' ', days } });
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.deep.equal(['days.thu.hours.0.endHourIndex', 'days.tue.hours', 'days.wed.hours', 'name']);
    const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
    expect(byKey.name).to.equal('O nome é obrigatório.');
    expect(byKey['days.wed.hours']).to.equal('Os horários do dia não podem se sobrepor.');
    expect(byKey['days.tue.hours']).to.equal('O início deve ser antes do fim.');
  });

  it('is level 6+ to read and write (SPEC §6; level 3 gets 403)', async () => {
    const created = await api.request('POST', '/api/business-hours', { token: owner.token, body: { name: 'Plantão' } });
    expect((await api.request('GET', '/api/business-hours', { token: agent.token })).status).to.equal(403);
    expect((await api.request('GET', `/api/business-hours/${created.body.data.id}`, { token: agent.token })).status).to.equal(403);
    expect((await api.request('POST', '/api/business-hours', { token: agent.token, body: { name: 'X' } })).status).to.equal(403);
    expect((await api.request('PUT', `/api/business-hours/${created.body.data.id}`, { token: agent.token, body: { name: 'X' } })).status).to.equal(403);
    expect((await api.request('DELETE', `/api/business-hours/${created.body.data.id}`, { token: agent.token })).status).to.equal(403);
  });

  it("answers 404 for another workspace's schedule", async () => {
    const created = await api.request('POST', '/api/business-hours', { token: owner.token, body: { name: 'Privado' } });
    const id = created.body.data.id;
    expect((await api.request('GET', `/api/business-hours/${id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/business-hours/${id}`, { token: stranger.token, body: { name: 'Meu' } })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/business-hours/${id}`, { token: stranger.token })).status).to.equal(404);
  });
});
