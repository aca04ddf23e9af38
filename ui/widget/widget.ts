import { MAX_WIDGET_TEXT } from '../../api/channels/widget/textLimit';
import { WidgetApi, WidgetApiError, type ChallengeSolution } from './api';
import { solveChallenge } from './pow';
import { el, icon, textOn } from './dom';
import { VisitorRealtime } from './realtime';
import { renderContent, safeHttpUrl } from './render';
import { siteAllowed } from '../../api/channels/widget/allowedSites';
import { clearSession, loadSession, saveSession, type VisitorSession } from './store';
import { css } from './styles';
import { responseText, texts } from './texts';
import type { Envelope, PreChatField, VisitorContact, WidgetConfig, WidgetCsat, WidgetMessage } from './types';
import { CsatCard, type CsatAnswerResult } from './csat';

export interface WidgetOptions {
  /** Origin of the Balcão server (where widget.js came from). */
  base: string;
  identifier: string;
  /** Open the chat box at once (the /widget test page does). */
  open?: boolean;
  doc?: Document;
}

/** SPEC §1: file send/receive limit 16 MB. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const DEFAULT_COLOR = '#0f766e';
/** Challenges solved for one message before giving up (a fresh one comes when a solution arrives too late). */
const MAX_CHALLENGES = 3;
/** Automatic sends of one message after a 503 or a dropped connection before 'Toque para tentar de novo'. */
const MAX_AUTO_RETRIES = 4;
/** Waits between them: the server's Retry-After (1 s when it says none), doubled each time, 10 s at most, ±20%. */
export function retryDelayMs(retryAfterSeconds: number | undefined, retries: number): number {
  const base = Math.min(10_000, (retryAfterSeconds ?? 1) * 1000 * 2 ** retries);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** How long 'digitando…' stays after the last chat.composing (the api sends at most one per second). */
const TYPING_MS = 4000;

interface Pending {
  li: HTMLLIElement;
  text: string;
  clientId: string;
}

const randomId = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });
}

/** The chat widget: a floating button and a chat box in a shadow root, talking to the widget API and MQTT. */
export class ChatWidget {
  private readonly doc: Document;
  private readonly api: WidgetApi;
  private session: VisitorSession | undefined;
  private realtime: VisitorRealtime | undefined;
  private readonly shown = new Map<number, HTMLLIElement>();
  /** The satisfaction questions on screen, by message id (updated by chat.widgetCsat). */
  private readonly csatCards = new Map<number, CsatCard>();
  private readonly pending: Pending[] = [];
  private unread = 0;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;

  private host!: HTMLElement;
  private box!: HTMLElement;
  private launcher!: HTMLButtonElement;
  private badge!: HTMLElement;
  private list!: HTMLOListElement;
  private welcome!: HTMLLIElement;
  private typing!: HTMLElement;
  private notice!: HTMLElement;
  private input!: HTMLTextAreaElement;
  private fileInput!: HTMLInputElement;
  private composer!: HTMLFormElement;
  /** The pre-chat form's answers, sent with the first message; undefined while the form is still to fill. */
  private contact: VisitorContact | undefined = {};

  constructor(private readonly o: WidgetOptions) {
    this.doc = o.doc ?? document;
    this.api = new WidgetApi(o.base, o.identifier);
    this.session = loadSession(o.identifier);
  }

  async mount(): Promise<void> {
    let config: WidgetConfig;
    try {
      config = await this.api.config();
    } catch (err) {
      if (this.destroyed) return;
      if (err instanceof WidgetApiError && err.status === 404) {
        // A wrong identifier in the tag: say so in the page instead of showing nothing (or an empty box).
        this.buildUnavailable();
        if (this.o.open) this.setOpen(true);
        return;
      }
      console.warn(err instanceof WidgetApiError && err.status === 403 ? texts.notAllowed : 'Balcão widget: servidor indisponível.', err);
      return;
    }
    if (this.destroyed) return;
    // The server refuses calls from other sites already; a page that sends no Origin is checked here too.
    if (!siteAllowed(location.hostname, config.allowedSites) && new URL(this.o.base).host !== location.host) {
      console.warn(texts.notAllowed);
      return;
    }
    this.build(config);
    if (this.o.open) this.setOpen(true);
    if (this.session) {
      void this.loadHistory();
      this.startRealtime();
    }
  }

  destroy(): void {
    this.destroyed = true;
    this.realtime?.stop();
    this.host?.remove();
  }

  /** The host element, its shadow root and styles, in the widget's colour and on its side of the screen. */
  private shell(config: Pick<WidgetConfig, 'color' | 'position'>): ShadowRoot {
    const d = this.doc;
    this.host = el(d, 'div', { 'data-balcao-widget': this.o.identifier });
    const color = config.color && /^#[0-9a-f]{6}$/i.test(config.color) ? config.color : DEFAULT_COLOR;
    this.host.style.setProperty('--bw-color', color);
    this.host.style.setProperty('--bw-on-color', textOn(color));
    const root = this.host.attachShadow({ mode: 'open' });
    // Constructed stylesheets are not inline <style>, so a host page's strict CSP does not block them.
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(el(d, 'style', {}, css));
    }
    return root;
  }

  /** The launcher and its box around `header` and `body`, appended to the page. */
  private frame(root: ShadowRoot, label: string, left: boolean, header: HTMLElement, ...body: HTMLElement[]): void {
    const d = this.doc;
    this.box = el(d, 'section', { class: 'box', role: 'dialog', 'aria-label': label, hidden: '' }, header, ...body);
    this.badge = el(d, 'span', { class: 'badge', hidden: '', 'aria-label': texts.unread });
    this.launcher = el(d, 'button', { type: 'button', class: 'launcher', 'aria-label': texts.open, 'aria-expanded': 'false' }, icon(d, 'chat'), this.badge);
    this.launcher.addEventListener('click', () => this.setOpen(this.box.hasAttribute('hidden')));
    root.append(el(d, 'div', { class: left ? 'root left' : 'root' }, this.box, this.launcher));
    this.box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.setOpen(false);
    });
    d.body.appendChild(this.host);
  }

  private closeButton(): HTMLButtonElement {
    const close = el(this.doc, 'button', { type: 'button', class: 'close', 'aria-label': texts.close }, icon(this.doc, 'close'));
    close.addEventListener('click', () => this.setOpen(false));
    return close;
  }

  /** An identifier no widget has: the box says so, in words a visitor and the site's owner understand. */
  private buildUnavailable(): void {
    const d = this.doc;
    const root = this.shell({ color: null });
    const header = el(d, 'header', {}, el(d, 'div', { class: 'titles' }, el(d, 'h2', { class: 'title' }, 'Chat')), this.closeButton());
    this.input = el(d, 'textarea', { hidden: '' });
    this.frame(root, 'Chat', false, header, el(d, 'p', { class: 'unavailable', role: 'alert' }, texts.notFound));
  }

  private build(config: WidgetConfig): void {
    const d = this.doc;
    const root = this.shell(config);

    const close = this.closeButton();
    this.notice = el(d, 'div', { class: 'notice', role: 'status', hidden: '' });
    const greeting = config.greeting ?? texts.welcome;
    this.welcome = el(d, 'li', { class: 'welcome' }, greeting);
    if (!greeting) this.welcome.hidden = true;
    this.list = el(d, 'ol', { class: 'messages', role: 'log', 'aria-live': 'polite', 'aria-label': texts.messages }, this.welcome);
    this.typing = el(d, 'div', { class: 'typing', hidden: '' }, texts.typing);

    this.input = el(d, 'textarea', { rows: '1', placeholder: texts.placeholder, 'aria-label': texts.placeholder, maxlength: String(MAX_WIDGET_TEXT) });
    this.input.addEventListener('keydown', (e) => {
      // SPEC §4: Enter without Shift sends.
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      }
    });
    this.input.addEventListener('input', () => {
      this.input.style.height = 'auto';
      this.input.style.height = `${Math.min(this.input.scrollHeight, 110)}px`;
    });
    this.fileInput = el(d, 'input', { type: 'file', hidden: '', tabindex: '-1' });
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      this.fileInput.value = '';
      if (file) void this.sendFile(file);
    });
    const attach = el(d, 'button', { type: 'button', class: 'icon attach', 'aria-label': texts.attach, title: texts.attach }, icon(d, 'attach'));
    attach.addEventListener('click', () => {
      if (!this.session) return this.flash(texts.attachFirst);
      this.fileInput.click();
    });
    const send = el(d, 'button', { type: 'submit', class: 'icon send', 'aria-label': texts.send }, icon(d, 'send'));
    this.composer = el(d, 'form', { class: 'composer' }, attach, this.fileInput, this.input, send);
    this.composer.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });

    const titles = el(d, 'div', { class: 'titles' }, el(d, 'h2', { class: 'title' }, config.company));
    const tagline = config.tagline ?? texts.subtitle;
    if (tagline) titles.append(el(d, 'p', { class: 'subtitle' }, tagline));
    if (config.responseMinutes && !config.outOfHours) titles.append(el(d, 'p', { class: 'subtitle response' }, responseText(config.responseMinutes)));
    const logo = config.logo ? safeHttpUrl(config.logo) : undefined;
    const header = el(d, 'header', {}, ...(logo ? [el(d, 'img', { class: 'logo', src: logo, alt: '' })] : []), titles, close);
    const body: HTMLElement[] = [this.notice];
    if (config.outOfHours && config.outOfHoursMessage) body.push(el(d, 'div', { class: 'hours', role: 'status' }, config.outOfHoursMessage));
    body.push(this.list, this.typing);
    const asked = (['name', 'email', 'phone'] as const).filter((f) => config.preChat && config.preChat[f] !== 'off');
    if (!this.session && asked.length) {
      // The pre-chat form stands in for the composer until it is filled; its answers go with the first message.
      this.contact = undefined;
      this.composer.hidden = true;
      body.push(this.preChatForm(asked, config.preChat!));
    }
    body.push(this.composer);
    this.frame(root, config.company, config.position === 'left', header, ...body);
  }

  /** Name, e-mail and/or phone before the first message, each optional or required as the widget is set. */
  private preChatForm(fields: readonly PreChatField[], modes: Record<PreChatField, string>): HTMLFormElement {
    const d = this.doc;
    const inputs = {} as Record<PreChatField, HTMLInputElement>;
    const errs = {} as Record<PreChatField, HTMLElement>;
    const form = el(d, 'form', { class: 'prechat', novalidate: '' }, el(d, 'p', { class: 'intro' }, texts.preChatIntro));
    for (const f of fields) {
      const required = modes[f] === 'required';
      const id = `bw-${f}`;
      inputs[f] = el(d, 'input', {
        id,
        name: f,
        type: f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text',
        autocomplete: f === 'name' ? 'name' : f === 'email' ? 'email' : 'tel',
        maxlength: f === 'name' ? '120' : f === 'email' ? '254' : '25',
        'aria-describedby': `${id}-error`,
        ...(required ? { required: '', 'aria-required': 'true' } : {}),
      });
      errs[f] = el(d, 'span', { class: 'field-error', id: `${id}-error` });
      form.append(el(d, 'label', { for: id }, texts[f], required ? ' *' : ` ${texts.optional}`), inputs[f], errs[f]);
    }
    form.append(el(d, 'button', { type: 'submit', class: 'start' }, texts.start));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const contact: VisitorContact = {};
      let first: HTMLInputElement | undefined;
      for (const f of fields) {
        const value = inputs[f].value.trim();
        const problem = !value
          ? modes[f] === 'required'
            ? texts[`${f}Required`]
            : ''
          : f === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
            ? texts.emailInvalid
            : f === 'phone' && !/^\+?[0-9]{8,20}$/.test(value.replace(/[\s().-]/g, ''))
              ? texts.phoneInvalid
              : '';
        errs[f].textContent = problem;
        inputs[f].setAttribute('aria-invalid', String(Boolean(problem)));
        if (problem) first ??= inputs[f];
        else if (value) contact[f] = value;
      }
      if (first) return first.focus();
      this.contact = contact;
      form.remove();
      this.composer.hidden = false;
      this.input.focus();
    });
    return form;
  }

  private setOpen(open: boolean): void {
    if (!this.box) return;
    this.box.hidden = !open;
    this.launcher.setAttribute('aria-expanded', String(open));
    this.launcher.setAttribute('aria-label', open ? texts.close : texts.open);
    if (open) {
      this.unread = 0;
      this.badge.hidden = true;
      this.scrollDown();
      if (!this.input.hidden && !this.composer?.hidden) this.input.focus();
    }
  }

  private flash(text: string, ms = 5000): void {
    clearTimeout(this.noticeTimer);
    this.notice.textContent = text;
    this.notice.hidden = false;
    if (ms > 0) this.noticeTimer = setTimeout(() => (this.notice.hidden = true), ms);
  }

  private scrollDown(): void {
    if (!this.list) return;
    this.list.scrollTop = this.list.scrollHeight;
  }

  // ── messages ────────────────────────────────────────────────────────────

  private bubble(mine: boolean, author?: string): HTMLLIElement {
    const li = el(this.doc, 'li', { class: mine ? 'msg mine' : 'msg' });
    if (author) li.append(el(this.doc, 'div', { class: 'author' }, author));
    return li;
  }

  /** Shows a message once (by id, in id order), whether it came from the API or from MQTT. */
  private show(message: WidgetMessage): void {
    if (this.shown.has(message.id)) return;
    const mine = message.sender === 'customer';
    const li = this.bubble(mine, mine ? undefined : (message.operator?.name ?? texts.team));
    li.dataset.id = String(message.id);
    renderContent(this.doc, message.content, li);
    if (message.csat) {
      const card = new CsatCard(this.doc, message.id, message.csat, (rating, comment) => this.answerCsat(message.id, rating, comment));
      this.csatCards.set(message.id, card);
      li.append(card.root);
    }
    li.append(el(this.doc, 'div', { class: 'meta' }, time(message.createdAt)));
    this.welcome.remove();

    // The visitor's own message coming back (their POST or another tab) takes the place of its pending bubble.
    const text = message.content
      .map((i) => ('insert' in i ? i.insert : ''))
      .join('')
      .replace(/\n$/, '');
    const twin = mine ? this.pending.findIndex((p) => p.text === text) : -1;
    if (twin >= 0) {
      const [p] = this.pending.splice(twin, 1);
      p!.li.replaceWith(li);
    } else {
      const after = [...this.shown.entries()].filter(([id]) => id > message.id).sort(([a], [b]) => a - b)[0];
      this.list.insertBefore(li, after ? after[1] : (this.pending[0]?.li ?? null));
    }
    this.shown.set(message.id, li);
    if (!mine) {
      this.typing.hidden = true;
      if (this.box.hasAttribute('hidden')) {
        this.unread += 1;
        this.badge.textContent = String(this.unread);
        this.badge.hidden = false;
      }
    }
    this.scrollDown();
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.input.value = '';
    this.input.style.height = 'auto';
    const li = this.bubble(true);
    li.append(el(this.doc, 'div', { class: 'text' }, text), el(this.doc, 'div', { class: 'meta' }, texts.sending));
    this.welcome.remove();
    this.list.appendChild(li);
    // Sent as typed: the server adds the Delta's closing newline itself, so a full text box (MAX_WIDGET_TEXT) fits.
    const p: Pending = { li, text, clientId: randomId() };
    this.pending.push(p);
    this.scrollDown();
    void this.deliver(p);
  }

  /**
   * Sends a pending message; a retry reuses its client id, so the server never stores it twice. A first
   * contact may be answered with a challenge (the channel is under a burst): solved, it goes again.
   */
  private async deliver(p: Pending, solution?: ChallengeSolution, challenges = 0, retries = 0): Promise<void> {
    p.li.classList.remove('failed');
    p.li.onclick = null;
    try {
      const res = await this.api.send(p.text, p.clientId, this.session?.token, solution, this.contact);
      if (res.visitor.token) {
        this.session = { visitorId: res.visitor.id, token: res.visitor.token };
        saveSession(this.o.identifier, this.session);
        this.startRealtime();
      }
      this.show(res.message);
      const left = this.pending.indexOf(p);
      if (left >= 0) {
        // Already shown through MQTT before the answer came: drop the placeholder.
        this.pending.splice(left, 1);
        p.li.remove();
      }
    } catch (err) {
      if (err instanceof WidgetApiError && err.status === 401) {
        // The session is gone (channel recreated): start a new conversation with this very message.
        this.forgetSession();
        return this.deliver(p);
      }
      if (err instanceof WidgetApiError && err.status === 400) return this.refuse(p, err);
      if (err instanceof WidgetApiError && err.status === 429 && err.challenge && challenges < MAX_CHALLENGES) {
        return this.solveAndDeliver(p, err.challenge, challenges + 1);
      }
      if (err instanceof WidgetApiError && err.status === 429) this.flash(texts.tooMany);
      // A server over capacity for a moment (503 with Retry-After) or a dropped connection: the same client
      // id goes again by itself a few times (the server stores it once) before the visitor is asked to tap.
      if (err instanceof WidgetApiError && (err.status === 503 || err.status === 0) && retries < MAX_AUTO_RETRIES && !this.destroyed) {
        await sleep(retryDelayMs(err.retryAfter, retries));
        if (!this.destroyed) return this.deliver(p, solution, challenges, retries + 1);
      }
      this.markFailed(p);
    }
  }

  private markFailed(p: Pending): void {
    p.li.classList.add('failed');
    p.li.lastElementChild!.textContent = texts.failed;
    p.li.onclick = () => void this.deliver(p);
  }

  /** Proof of work for a channel under a burst (docs/widget.md): a fraction of a second, then the message goes. */
  private async solveAndDeliver(p: Pending, challenge: string, challenges: number): Promise<void> {
    p.li.lastElementChild!.textContent = texts.verifying;
    const counter = await solveChallenge(challenge, () => this.destroyed);
    if (counter === undefined) return this.markFailed(p);
    return this.deliver(p, { token: challenge, counter }, challenges);
  }

  /**
   * A message the server will never take as it is: its reason (the server's description) instead of a
   * retry, and the text back in an empty box so the visitor can fix it.
   */
  private refuse(p: Pending, err: WidgetApiError): void {
    const left = this.pending.indexOf(p);
    if (left >= 0) this.pending.splice(left, 1);
    p.li.classList.add('refused');
    p.li.lastElementChild!.textContent = /^HTTP \d+$/.test(err.message) ? texts.refused : err.message;
    if (!this.input.value) {
      this.input.value = p.text;
      this.input.dispatchEvent(new Event('input'));
    }
  }

  private async sendFile(file: File): Promise<void> {
    if (!this.session) return this.flash(texts.attachFirst);
    if (file.size > MAX_FILE_BYTES) return this.flash(texts.fileTooBig);
    this.flash(texts.sending, 0);
    try {
      const { message } = await this.api.sendFile(this.session.token, file);
      this.notice.hidden = true;
      this.show(message);
    } catch (err) {
      // Over a size or a storage budget: the server's own words (pt-BR) say which.
      const budget = err instanceof WidgetApiError && (err.status === 413 || err.status === 429);
      this.flash(budget ? (/^HTTP \d+$/.test(err.message) ? texts.fileTooBig : err.message) : texts.fileFailed);
    }
  }

  /** The visitor rates the call (POST /v1/widget/csat): the new state, or the server's reason. */
  private async answerCsat(messageId: number, rating: number, comment: string | null): Promise<CsatAnswerResult> {
    if (!this.session) return { ok: false, message: texts.csatFailed, closed: false };
    try {
      const res = await this.api.csat(this.session.token, messageId, rating, comment);
      return res.csat ? { ok: true, csat: res.csat } : { ok: false, message: texts.csatFailed, closed: false };
    } catch (err) {
      const known = err instanceof WidgetApiError && (err.status === 409 || err.status === 404 || err.status === 400);
      return { ok: false, message: known && !/^HTTP \d+$/.test(err.message) ? err.message : texts.csatFailed, closed: err instanceof WidgetApiError && (err.status === 409 || err.status === 404) };
    }
  }

  private async loadHistory(after?: number): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      const messages = await this.api.messages(session.token, after);
      for (const m of messages) this.show(m);
    } catch (err) {
      if (err instanceof WidgetApiError && err.status === 401 && this.session === session) this.forgetSession();
    }
  }

  private forgetSession(): void {
    clearSession(this.o.identifier);
    this.session = undefined;
    this.realtime?.stop();
    this.realtime = undefined;
  }

  // ── realtime ────────────────────────────────────────────────────────────

  private startRealtime(): void {
    const session = this.session;
    if (!session || this.realtime) return;
    const ws = new URL('/mqtt', this.o.base);
    ws.protocol = ws.protocol === 'https:' ? 'wss:' : 'ws:';
    this.realtime = new VisitorRealtime({
      wsUrl: ws.href,
      identifier: this.o.identifier,
      session,
      onEvent: (env) => this.onEvent(env),
      onOnline: () => {
        this.notice.hidden = true;
        // Whatever was published before this subscription took effect (the first one included: an agent may
        // answer between the visitor's first message and the SUBACK) or while the socket was down.
        void this.loadHistory(Math.max(0, ...this.shown.keys()) || undefined);
      },
      onOffline: () => this.flash(texts.offline, 0),
      onRefused: () => {
        void this.api.messages(session.token).then(
          () => this.realtime?.retryLater(),
          (err: unknown) => {
            if (err instanceof WidgetApiError && err.status === 401) this.forgetSession();
            else this.realtime?.retryLater();
          },
        );
      },
    });
    this.realtime.start();
  }

  private onEvent(env: Envelope): void {
    if (env.event === 'chat.widgetNewMessage') {
      const m = env.data as WidgetMessage;
      if (m && typeof m.id === 'number' && Array.isArray(m.content)) this.show(m);
    } else if (env.event === 'chat.widgetCsat') {
      const d = env.data as { messageId?: number; csat?: WidgetCsat } | null;
      if (d && typeof d.messageId === 'number' && d.csat) this.csatCards.get(d.messageId)?.update(d.csat);
    } else if (env.event === 'chat.composing') {
      this.typing.hidden = false;
      clearTimeout(this.typingTimer);
      this.typingTimer = setTimeout(() => (this.typing.hidden = true), TYPING_MS);
    }
  }
}
