import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useAppPage, type BrowserSession } from '../helpers/browser';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { firstContact, makeWidget, type TestVisitor } from '../widget/helpers';
import { PNG_1x1 } from '../assets/helpers';
import { logIn } from '../e2e/support';

/**
 * Stored XSS (issue 6 "Security"): a corpus of payloads stored through every way a visitor or an agent
 * puts text on an agent's screen (widget messages, the visitor's name, contact fields, custom properties,
 * file names) and rendered by the real inbox in Chromium. Every payload, if it ever ran, would push to
 * window.__xss and open a dialog; neither may happen, and no active markup may reach the DOM.
 */
const mark = (tag: string) => `window.__xss.push('${tag}');alert('${tag}')`;
const CORPUS = [
  `<img src=x onerror="${mark('img')}">`,
  `<svg onload="${mark('svg')}"><circle r=1></circle></svg>`,
  `<iframe srcdoc="<script>parent.${mark('iframe')}</script>"></iframe>`,
  `<a href="javascript:${mark('link')}">clique aqui</a>`,
  `javascript:${mark('bare')}`,
  `"><script>${mark('script')}</script>`,
  `<details open ontoggle="${mark('details')}">`,
];

describe('security: stored XSS rendered in the inbox (Chromium)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let browser: BrowserSession;
  let page: Page;
  let admin: TestOperator;
  let visitor: TestVisitor;
  const dialogs: string[] = [];

  useAppPage((s) => ({ api, browser, page } = s));

  beforeEach(async () => {
    dialogs.length = 0;
    const ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Alice Admin' });
    const widget = await makeWidget(api, admin);
    // The visitor's name (the contact name) and every message carry payloads.
    visitor = await firstContact(api, widget, CORPUS[0], { sender: CORPUS[1] });
    for (const payload of CORPUS.slice(1)) {
      const res = await api.request('POST', '/api/v1/widget/messages', { token: visitor.token, body: { content: payload, type: 'text', identifier: widget.identifier } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    // Files whose names are payloads (the name is cleaned of path parts, the rest must render as text).
    for (const name of [`<img src=x onerror="${mark('file')}">.png`, `<svg onload=${mark('filesvg')}>.png`]) {
      const form = new FormData();
      form.append('file', new Blob([PNG_1x1], { type: 'image/png' }), name);
      const res = await fetch(`${api.url}/api/v1/widget/files`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${visitor.token}` } });
      expect(res.status, await res.text()).to.equal(201);
    }
    const customerId = (await api.deps.knex('customer_platforms').where({ id: visitor.conversationId }).first('customer_id')).customerId as number;
    const contact = await api.request('PUT', `/api/inbox/customer/${customerId}`, { token: admin.token, body: { name: CORPUS[2].slice(0, 250), details: CORPUS.join('\n') } });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
    for (const [i, payload] of CORPUS.entries()) {
      const res = await api.request('POST', `/api/inbox/customer/${customerId}/properties`, { token: admin.token, body: { label: `Campo ${'abcdefg'[i]} <img src=x onerror="${mark(`label${i}`)}">`, value: payload } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    // An agent's private note and reply with payloads too (the composer's text reaches other agents).
    for (const type of [0, 2]) {
      const res = await api.request('POST', '/api/inbox/messages', { token: admin.token, body: { id: visitor.conversationId, type, content: [{ insert: `${CORPUS[3]} ${CORPUS[0]}\n` }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }

    await page.addInitScript('window.__xss = [];');
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  async function assertNothingRan(where: string): Promise<void> {
    // Give image errors, loads and toggles time to fire.
    await page.waitForTimeout(750);
    expect(await page.evaluate<unknown[]>('window.__xss'), `${where}: script markers`).to.deep.equal([]);
    expect(dialogs, `${where}: dialogs`).to.deep.equal([]);
    const active = await page.evaluate<string[]>(`[...document.querySelectorAll('*')].flatMap((el) => [
      ...[...el.attributes].filter((a) => /^on/i.test(a.name) || a.name === 'srcdoc').map((a) => el.tagName + '[' + a.name + ']'),
      ...(el.tagName === 'SCRIPT' && el.textContent.includes('__xss') ? ['SCRIPT'] : []),
      ...(['href', 'src', 'action', 'formaction', 'xlink:href'].map((n) => el.getAttribute(n)).filter((v) => v && /^\\s*javascript:/i.test(v)).map(() => el.tagName + ' javascript: URL')),
    ])`);
    expect(active, `${where}: active markup in the DOM`).to.deep.equal([]);
  }

  it('runs no script from messages, names, contact fields, properties or file names, in the list, the conversation and the contact panel', async () => {
    await logIn(page, { email: admin.email, password: admin.password });
    // The list row shows the contact name and the last message as text.
    await page.getByText('<iframe srcdoc=', { exact: false }).first().waitFor();
    await assertNothingRan('conversation list');

    await page.goto(`/inbox/all/${visitor.conversationId}`);
    const conversation = page.getByTestId('conversation');
    // The payloads show as text: the visitor's message and the link's markup are visible literally.
    await conversation.getByText('clique aqui', { exact: false }).first().waitFor();
    await conversation.getByText('<img src=x onerror=', { exact: false }).first().waitFor();
    await assertNothingRan('conversation');

    const panel = page.getByTestId('contact-panel');
    await panel.waitFor();
    await panel.getByTestId('contact-property').first().waitFor();
    for (const name of ['Histórico', 'Mídia']) {
      const header = panel.getByRole('button', { name });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    }
    await panel.getByTestId('contact-media').first().waitFor();
    await assertNothingRan('contact panel');

    // Hovering and clicking every link in the conversation runs nothing either.
    const links = conversation.locator('a');
    for (let i = 0; i < (await links.count()); i++) {
      const href = await links.nth(i).getAttribute('href');
      expect(href ?? '', 'link target').not.to.match(/^\s*javascript:/i);
    }
    await assertNothingRan('links');
    expect(browser.consoleErrors.filter((e) => e.includes('__xss'))).to.deep.equal([]);
  });

  it('serves the app HTML with a CSP that forbids inline scripts and framing by others', async () => {
    for (const path of ['/', '/inbox/all', '/user/login']) {
      const res = await fetch(`${api.url}${path}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
      expect(directives['script-src'], csp).to.deep.equal(["'self'"]);
      expect(directives['object-src'], csp).to.deep.equal(["'none'"]);
      expect(directives['frame-ancestors'], csp).to.deep.equal(["'self'"]);
      expect(directives['base-uri'], csp).to.deep.equal(["'self'"]);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    }
  });
});
