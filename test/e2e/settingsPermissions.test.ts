import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, makeLabel } from '../inbox/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { logIn } from './support';

const FORBIDDEN = 'Você não tem permissão para acessar esta página.';

/** What a settings route shows: the page's h1, the open dialog's title, whether it refused the user. */
interface View {
  h1: string[];
  dialog: string | null;
  forbidden: boolean;
}

interface RouteCheck {
  path: string;
  /** SPEC §6: the lowest level that may open it. */
  min: AccessLevelValue;
  h1: string;
  dialog?: string;
  /** Below `min` the route sends to this page (its h1) instead of saying it is not allowed. */
  redirectH1?: string;
}

/**
 * The view once the route has settled. React Router renders navigations in a transition (the old page stays
 * until the new one is ready), so this polls for the expected view and reports the last one seen.
 */
async function viewAt(page: Page, path: string, expected: View): Promise<View> {
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
  let last: View | undefined;
  for (let i = 0; i < 100; i++) {
    last = await page.evaluate<View>(`(() => {
      const dialog = [...document.querySelectorAll('[role="dialog"]')].map((d) => document.getElementById(d.getAttribute('aria-labelledby') || '')?.textContent ?? '')[0] ?? null;
      return {
        h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
        dialog,
        forbidden: document.body.innerText.includes(${JSON.stringify(FORBIDDEN)}),
      };
    })()`);
    if (JSON.stringify(last) === JSON.stringify(expected)) return last;
    await page.waitForTimeout(100);
  }
  return last!;
}

describe('e2e: every settings route × levels 9, 6, 3 and 2 (SPEC §2, §6 mirrored in the UI)', function () {
  this.timeout(240_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;
  const ids: Record<string, number> = {};

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    const channel = await makeChannel(api.deps.knex, ws, 'widget', { description: 'Site' });
    ids.channel = channel.id;
    ids.tag = await makeLabel(api.deps.knex, ws, 'Urgente');
    ids.group = await makeGroup(api.deps.knex, ws, [owner.id]);
    const post = async (path: string, body: unknown, method = 'POST') => {
      const res = await api.request(method, path, { token: owner.token, body });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
      return res.body.data.id as number;
    };
    ids.hours = await post('/api/business-hours', { name: 'Comercial', days: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { active: true, hours: [{ startHourIndex: 36, endHourIndex: 72 }] }])) });
    ids.rule = await post('/api/assignment-rules', { name: 'Site', rules: { workspacePlatformId: channel.id, group: ids.group } });
    ids.plugin = await post('/api/plugin', { name: 'CRM', endpoint: 'https://crm.example.com/painel' });
    ids.webhook = await post('/api/webhook', { webhook: 'https://hooks.example.test/x', subscriptions: { 'message:received': true } }, 'PUT');
  });

  const routes = (): RouteCheck[] => [
    { path: '/settings/account/profile', min: 2, h1: 'Perfil' },
    { path: '/settings/account/profile/password', min: 2, h1: 'Alterar senha' },
    // Issue 11 §4: workspace settings ('Geral') are level 6+ (SPEC §6); below, the route opens the profile.
    { path: '/settings/account/workspace', min: 6, h1: 'Geral', redirectH1: 'Perfil' },
    { path: '/settings/account/preferences', min: 2, h1: 'Aparência' },
    { path: '/settings/billing/license', min: 6, h1: 'Assinatura' },
    { path: '/settings/channels', min: 6, h1: 'Canais' },
    { path: `/settings/channels/${ids.channel}`, min: 6, h1: 'Chat do site' },
    { path: '/settings/channels/add', min: 6, h1: 'Adicionar canal' },
    { path: '/settings/channels/add/chat-widget', min: 6, h1: 'Novo chat do site' },
    { path: '/settings/channels/add/whatsapp', min: 6, h1: 'Nova linha de WhatsApp' },
    { path: `/settings/channels/chat-widget/${ids.channel}`, min: 6, h1: 'Chat do site' },
    { path: '/settings/members', min: 6, h1: 'Agentes' },
    { path: '/settings/members/new', min: 6, h1: 'Agentes', dialog: 'Convidar agente' },
    { path: `/settings/members/${owner.id}`, min: 6, h1: 'Agentes', dialog: 'Olga Dona' },
    { path: '/settings/groups', min: 6, h1: 'Grupos' },
    { path: '/settings/groups/new', min: 6, h1: 'Grupos', dialog: 'Novo grupo' },
    { path: '/settings/business-hours', min: 6, h1: 'Horário comercial' },
    { path: '/settings/business-hours/new', min: 6, h1: 'Novo horário comercial' },
    { path: `/settings/business-hours/${ids.hours}`, min: 6, h1: 'Editar horário comercial' },
    { path: '/settings/tags', min: 2, h1: 'Etiquetas' },
    { path: '/settings/tags/new', min: 2, h1: 'Etiquetas', dialog: 'Nova etiqueta' },
    { path: `/settings/tags/${ids.tag}`, min: 2, h1: 'Etiquetas', dialog: 'Urgente' },
    { path: '/settings/quick-phrases', min: 2, h1: 'Frases Rápidas' },
    { path: '/settings/quick-phrases/new', min: 2, h1: 'Frases Rápidas', dialog: 'Nova frase' },
    { path: '/settings/assignment-rules', min: 6, h1: 'Atribuição Automática' },
    { path: '/settings/assignment-rules/new', min: 6, h1: 'Nova regra de atribuição' },
    { path: `/settings/assignment-rules/${ids.rule}`, min: 6, h1: 'Editar regra de atribuição' },
    { path: '/settings/bot', min: 6, h1: 'Bot' },
    { path: '/settings/webhook', min: 6, h1: 'Webhook' },
    { path: `/settings/webhook/${ids.webhook}`, min: 6, h1: 'Webhook' },
    { path: '/settings/plugins', min: 6, h1: 'Plugins' },
    { path: '/settings/plugins/new', min: 6, h1: 'Novo plugin' },
    { path: `/settings/plugins/${ids.plugin}`, min: 6, h1: 'Editar plugin' },
    { path: '/settings/api', min: 6, h1: 'API' },
  ];

  /** The settings side menu, link by link. */
  const menu = async () => page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link').allTextContents();

  for (const level of [9, 6, 3, 2] as const) {
    it(`level ${level}: the menu offers what SPEC §6 allows, and every route opens or says it is not allowed`, async () => {
      const user = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, level, { name: `Nível ${level}` });
      await logIn(page, user);
      await page.goto('/settings');
      await page.waitForURL('**/settings/account/profile');
      await page.getByRole('heading', { level: 1, name: 'Perfil' }).waitFor();

      const links = await menu();
      const account = ['Perfil', 'Aparência'];
      if (level >= 6) {
        const all = [...account, 'Geral', 'Canais', 'Agentes', 'Grupos', 'Horário comercial', 'Etiquetas', 'Frases Rápidas', 'Atribuição Automática', 'Bot', 'Webhook', 'Plugins', 'API'];
        expect(links).to.include.members(all);
        // SPEC §6: the billing tab from 9 (the user menu shows Assinatura from 6: both readings kept).
        expect(links.includes('Assinatura'), 'billing tab').to.equal(level >= 9);
      } else {
        expect(links).to.deep.equal([...account, 'Etiquetas', 'Frases Rápidas']);
      }

      const mismatches: string[] = [];
      for (const route of routes()) {
        const allowed = level >= route.min;
        const expected: View = allowed
          ? { h1: [route.h1], dialog: route.dialog ?? null, forbidden: false }
          : route.redirectH1
            ? { h1: [route.redirectH1], dialog: null, forbidden: false }
            : { h1: [], dialog: null, forbidden: true };
        const seen = await viewAt(page, route.path, expected);
        if (JSON.stringify(seen) !== JSON.stringify(expected)) mismatches.push(`${route.path}: expected ${JSON.stringify(expected)}, saw ${JSON.stringify(seen)}`);
      }
      expect(mismatches, mismatches.join('\n')).to.deep.equal([]);

      // 'Geral' opens from 6 only: below, its address lands on the profile and the API refuses a change.
      await viewAt(page, '/settings/account/workspace', { h1: [level >= 6 ? 'Geral' : 'Perfil'], dialog: null, forbidden: false });
      expect(new URL(page.url()).pathname).to.equal(level >= 6 ? '/settings/account/workspace' : '/settings/account/profile');
      const put = await api.request('PUT', '/api/workspace', { token: user.token, body: { name: ws.name } });
      expect(put.status, JSON.stringify(put.body)).to.equal(level >= 6 ? 200 : 403);
      // Tags and quick phrases stay open to every level.
      await viewAt(page, '/settings/tags', { h1: ['Etiquetas'], dialog: null, forbidden: false });
      await page.getByRole('button', { name: 'Nova etiqueta' }).waitFor();
      await viewAt(page, '/settings/quick-phrases', { h1: ['Frases Rápidas'], dialog: null, forbidden: false });
      await page.getByRole('button', { name: 'Nova frase' }).waitFor();
    });
  }
});
