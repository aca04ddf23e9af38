import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { PNG_1x1 } from '../assets/helpers';
import { makeWidget, type TestWidget } from './helpers';
import { localToday, addDays } from '../../api/reports/filters';
import { SITE_NOT_ALLOWED } from '../../api/channels/widget/siteCheck';

const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const week = (active: boolean) => Object.fromEntries(ALL_DAYS.map((d) => [d, { active, hours: [{ startHourIndex: 0, endHourIndex: 96 }] }]));

describe('widget settings (Configurações › Canais › Chat do site) and what the widget reads of them', () => {
  let api: TestApi;
  let owner: TestOperator;
  let agent: TestOperator;
  let other: TestOperator;
  let otherWidget: TestWidget;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    otherWidget = await makeWidget(api, other, 'Site de outra empresa');
  });
  beforeEach(() => api.deps.rateLimiter.reset());
  after(() => api.close());

  const put = (id: number, body: unknown, token = owner.token) => api.request('PUT', `/api/integrations/widget/${id}`, { token, body });
  const config = (identifier: string, headers: Record<string, string> = {}) => api.request('GET', `/api/v1/widget/config?identifier=${identifier}`, { headers });
  const keys = (res: { body: { errors: Array<{ key: string }> } }) => res.body.errors.map((e) => e.key).sort();
  const uploadLogo = async (token: string) => {
    const form = new FormData();
    form.append('avatar', new Blob([PNG_1x1], { type: 'image/png' }), 'logo.png');
    const res = await fetch(`${api.url}/api/integrations/widget/logo`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { data: { fileName: string }[] } };
  };

  it('a new widget starts with the documented defaults, and every setting is saved, normalised and served to the widget', async () => {
    const widget = await makeWidget(api, owner);
    const fresh = await api.request('GET', `/api/integrations/widget/${widget.id}`, { token: owner.token });
    expect(fresh.body.data).to.include({ greeting: 'Olá! Envie sua mensagem e nossa equipe responderá por aqui.', tagline: 'Fale conosco', position: 'right', showResponseTime: true, logo: null, businessHoursId: null });
    expect(fresh.body.data.preChat).to.deep.equal({ name: 'off', email: 'off', phone: 'off' });
    expect(fresh.body.data.allowedSites).to.deep.equal([]);

    const logo = await uploadLogo(owner.token);
    expect(logo.status).to.equal(201);
    const res = await put(widget.id, {
      avatar: '#B42318',
      greeting: '  Oi! Como podemos ajudar?  ',
      tagline: 'Padaria do Bairro',
      logo: logo.body.data[0].fileName,
      position: 'left',
      preChat: { name: 'required', email: 'optional', phone: 'off' },
      allowedSites: ['https://www.Padaria.com.br/contato', '*.padaria.net', ''],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ avatar: '#B42318', greeting: 'Oi! Como podemos ajudar?', tagline: 'Padaria do Bairro', position: 'left', logo: logo.body.data[0].fileName });
    expect(res.body.data.allowedSites).to.deep.equal(['www.padaria.com.br', 'padaria.net']);

    const cfg = await config(widget.identifier, { Origin: 'https://www.padaria.com.br' });
    expect(cfg.status).to.equal(200);
    expect(cfg.body.data).to.include({ color: '#B42318', greeting: 'Oi! Como podemos ajudar?', tagline: 'Padaria do Bairro', position: 'left', logo: logo.body.data[0].fileName, outOfHours: false });
    expect(cfg.body.data.preChat).to.deep.equal({ name: 'required', email: 'optional', phone: 'off' });
  });

  it('refuses invalid settings with every failing field at once, in pt-BR, and below level 6', async () => {
    const widget = await makeWidget(api, owner);
    const res = await put(widget.id, { position: 'top', greeting: 'x'.repeat(301), allowedSites: ['não é um site'], preChat: { name: 'sempre', email: 'off', phone: 'off' }, logo: 'https://evil.example/pixel.gif' });
    expect(res.status).to.equal(400);
    expect(keys(res)).to.deep.equal(['allowedSites', 'greeting', 'logo', 'position', 'preChat.name']);
    expect(JSON.stringify(res.body)).to.contain('Site inválido: \\"não é um site\\"');
    expect((await put(widget.id, { tagline: 'Agente não muda' }, agent.token)).status).to.equal(403);
    expect((await uploadLogo(agent.token)).status).to.equal(403);
  });

  it("keeps workspaces apart: another workspace's widget is a 404, its logo and business hours are refused like unknown ones", async () => {
    const widget = await makeWidget(api, owner);
    expect((await put(otherWidget.id, { tagline: 'Invasão' })).status).to.equal(404);
    expect((await api.request('GET', `/api/integrations/widget/${otherWidget.id}`, { token: owner.token })).status).to.equal(404);
    const foreignLogo = await uploadLogo(other.token);
    const [foreignHours] = await api.deps.knex('business_hours').insert({ workspaceId: other.workspaceId, name: 'Deles', days: JSON.stringify(week(true)) }).returning('id');
    const res = await put(widget.id, { logo: foreignLogo.body.data[0].fileName, businessHoursId: foreignHours.id });
    expect(res.status).to.equal(400);
    expect(keys(res)).to.deep.equal(['businessHoursId', 'logo']);
    const after = await api.deps.knex('channels').where({ id: otherWidget.id }).first('config');
    expect(after.config.widget.tagline).to.equal('Fale conosco');
  });

  describe('allowed sites', () => {
    let widget: TestWidget;
    before(async () => {
      widget = await makeWidget(api, owner);
      expect((await put(widget.id, { allowedSites: ['loja.com.br'] })).status).to.equal(200);
    });

    it('answers pages of the listed site and its subdomains (Origin or Referer) and refuses a foreign Origin with a 403 in pt-BR', async () => {
      expect((await config(widget.identifier, { Origin: 'https://loja.com.br' })).status).to.equal(200);
      expect((await config(widget.identifier, { Origin: 'https://www.loja.com.br' })).status).to.equal(200);
      expect((await config(widget.identifier, { Referer: 'https://m.loja.com.br/produtos?id=1' })).status).to.equal(200);
      const foreign = await config(widget.identifier, { Origin: 'https://loja.com.br.golpe.com' });
      expect(foreign.status).to.equal(403);
      expect(foreign.body.errors[0].descriptions[0]).to.equal(SITE_NOT_ALLOWED);
      expect((await config(widget.identifier, { Origin: 'https://outraloja.com.br' })).status).to.equal(403);
      // No page named at all: not a browser on an allowed site.
      expect((await config(widget.identifier)).status).to.equal(403);
      // Balcão's own pages (the /widget test page, the settings preview) are always allowed.
      expect((await config(widget.identifier, { Origin: api.url })).status).to.equal(200);
    });

    it('refuses messages from a foreign site before a visitor is created, and a visitor token used from a foreign site', async () => {
      const body = { content: 'Oi', type: 'text', identifier: widget.identifier };
      const foreign = await api.request('POST', '/api/v1/widget/messages', { body, headers: { Origin: 'https://golpe.example' } });
      expect(foreign.status).to.equal(403);
      expect(await api.deps.knex('widget_visitors').where({ channelId: widget.id }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
      const ok = await api.request('POST', '/api/v1/widget/messages', { body, headers: { Origin: 'https://www.loja.com.br' } });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      const token: string = ok.body.data.visitor.token;
      expect((await api.request('GET', '/api/v1/widget/messages', { token, headers: { Origin: 'https://www.loja.com.br' } })).status).to.equal(200);
      expect((await api.request('GET', '/api/v1/widget/messages', { token, headers: { Origin: 'https://golpe.example' } })).status).to.equal(403);
      const again = await api.request('POST', '/api/v1/widget/messages', { body, token, headers: { Origin: 'https://golpe.example' } });
      expect(again.status).to.equal(403);
    });

    it('an empty list lets the widget run anywhere', async () => {
      const open = await makeWidget(api, owner);
      expect((await config(open.identifier, { Origin: 'https://qualquer.example' })).status).to.equal(200);
      expect((await config(open.identifier)).status).to.equal(200);
    });
  });

  describe('pre-chat form', () => {
    it('a first contact must bring the fields the widget requires, and the new contact gets its name, e-mail and phone', async () => {
      const widget = await makeWidget(api, owner);
      await put(widget.id, { preChat: { name: 'required', email: 'required', phone: 'optional' } });
      const post = (extra: Record<string, unknown>) => api.request('POST', '/api/v1/widget/messages', { body: { content: 'Quero um orçamento', type: 'text', identifier: widget.identifier, ...extra } });
      const missing = await post({ phone: '(11) 91234-5678' });
      expect(missing.status).to.equal(400);
      expect(keys(missing)).to.deep.equal(['email', 'sender']);
      expect(missing.body.errors.find((e: { key: string }) => e.key === 'email').descriptions).to.deep.equal(['Informe seu e-mail.']);
      expect((await post({ sender: 'Rita', email: 'não-é-email' })).status).to.equal(400);

      const ok = await post({ sender: 'Rita Souza', email: 'Rita@Exemplo.com.br', phone: '(11) 91234-5678' });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      const contact = await api.deps
        .knex('customer_platforms as cp')
        .join('customers as c', 'c.id', 'cp.customer_id')
        .where({ 'cp.channel_id': widget.id, 'cp.external_id': ok.body.data.visitor.id })
        .first('c.name', 'c.email', 'c.phone', 'c.workspace_id');
      expect(contact).to.deep.equal({ name: 'Rita Souza', email: 'rita@exemplo.com.br', phone: '11912345678', workspaceId: owner.workspaceId });
      // Later messages carry the token and are not asked again.
      const next = await api.request('POST', '/api/v1/widget/messages', { token: ok.body.data.visitor.token, body: { content: 'Oi de novo', type: 'text', identifier: widget.identifier } });
      expect(next.status).to.equal(201);
    });
  });

  describe('response time and business hours', () => {
    it("'respondemos em X minutos' is the median TME of the widget's channel over the last 7 days, read from the daily report aggregates", async () => {
      const widget = await makeWidget(api, owner);
      const sibling = await makeWidget(api, owner);
      const knex = api.deps.knex;
      const today = localToday('America/Sao_Paulo');
      // Histograms as the report triggers fill them (report_bucket); no call or message exists behind them.
      const row = async (channelId: number, day: string, ...tmeMs: number[]) => {
        const buckets: { b: number }[] = (await knex.raw(`SELECT report_bucket(ms) AS b FROM unnest(?::bigint[]) AS ms`, [tmeMs])).rows;
        const hist = new Array<number>(120).fill(0);
        for (const { b } of buckets) hist[b - 1] += 1;
        await knex('report_daily').insert({ workspaceId: owner.workspaceId, day, channelId, tmeCount: tmeMs.length, tmeSumMs: tmeMs.reduce((a, b) => a + b, 0), tmeHist: hist });
      };
      await row(widget.id, today, 240_000, 240_000);
      await row(widget.id, addDays(today, -6), 240_000, 7_200_000);
      await row(widget.id, addDays(today, -8), 36_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000); // outside the 7 days
      await row(sibling.id, today, 60_000_000, 60_000_000, 60_000_000, 60_000_000, 60_000_000, 60_000_000); // another channel
      const cfg = await config(widget.identifier);
      // Median of 240, 240, 240, 7200 s: ~4 min (the histogram bucket's middle, 234.8 s, rounded up). The mean would say 33.
      expect(cfg.body.data.responseMinutes).to.equal(4);

      const quiet = await makeWidget(api, owner);
      expect((await config(quiet.identifier)).body.data.responseMinutes).to.equal(null);
      await put(quiet.id, { showResponseTime: false });
      await row(quiet.id, today, 120_000);
      expect((await config(quiet.identifier)).body.data.responseMinutes).to.equal(null);
    });

    it("shows the out-of-hours message only while the chosen business hours say closed", async () => {
      const [closed] = await api.deps.knex('business_hours').insert({ workspaceId: owner.workspaceId, name: 'Nunca aberto', days: JSON.stringify(week(false)) }).returning('id');
      const [open] = await api.deps.knex('business_hours').insert({ workspaceId: owner.workspaceId, name: 'Sempre aberto', days: JSON.stringify(week(true)) }).returning('id');
      const a = await makeWidget(api, owner);
      const b = await makeWidget(api, owner);
      const c = await makeWidget(api, owner);
      expect((await put(a.id, { businessHoursId: closed.id, outOfHoursMessage: 'Voltamos amanhã às 8h.' })).status).to.equal(200);
      expect((await put(b.id, { businessHoursId: open.id, outOfHoursMessage: 'Voltamos amanhã às 8h.' })).status).to.equal(200);
      const ca = (await config(a.identifier)).body.data;
      expect(ca).to.include({ outOfHours: true, outOfHoursMessage: 'Voltamos amanhã às 8h.' });
      const cb = (await config(b.identifier)).body.data;
      expect(cb).to.include({ outOfHours: false, outOfHoursMessage: null });
      // No schedule chosen: never out of hours.
      expect((await config(c.identifier)).body.data).to.include({ outOfHours: false });
    });
  });
});
