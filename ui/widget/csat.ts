import { CSAT_COMMENT_MAX, CSAT_EMOJIS, CSAT_LABELS } from '../../api/csat/scale';
import { el } from './dom';
import { texts } from './texts';
import type { WidgetCsat } from './types';

/** What answering answers: the question as it is now, or the server's reason (a 409: answered, time over). */
export type CsatAnswerResult = { ok: true; csat: WidgetCsat } | { ok: false; message: string; closed: boolean };

/**
 * The satisfaction question's box under its bubble (docs/csat.md): five buttons (1 to 5, or faces), an
 * optional comment and 'Enviar avaliação'; every control is a native button or textarea, so it works from the
 * keyboard (Tab, Enter, Space), and the chosen button says so (aria-pressed). Answered: the rating and the
 * thanks. Time over: says so. `update` redraws it from a newer state (the answer from another tab).
 */
export class CsatCard {
  readonly root: HTMLElement;
  private rating = 0;

  constructor(
    private readonly doc: Document,
    private readonly messageId: number,
    private csat: WidgetCsat,
    private readonly answer: (rating: number, comment: string | null) => Promise<CsatAnswerResult>,
  ) {
    this.root = el(doc, 'div', { class: 'csat', 'data-csat': String(messageId) });
    this.render();
  }

  update(csat: WidgetCsat): void {
    this.csat = csat;
    this.render();
  }

  private render(): void {
    const d = this.doc;
    this.root.replaceChildren();
    const c = this.csat;
    if (c.state === 'answered' && c.rating) {
      const face = c.scale === 'emojis' ? `${CSAT_EMOJIS[c.rating - 1]} ` : '';
      this.root.append(el(d, 'p', { class: 'csat-done', role: 'status' }, `${face}${texts.csatYourRating.replace('{n}', String(c.rating))}`));
      if (c.thanks) this.root.append(el(d, 'p', { class: 'csat-thanks' }, c.thanks));
      return;
    }
    if (c.state !== 'pending') {
      this.root.append(el(d, 'p', { class: 'csat-done', role: 'status' }, texts.csatClosed));
      return;
    }
    const group = el(d, 'div', { class: 'csat-scale', role: 'group', 'aria-label': texts.csatScale });
    const buttons = CSAT_LABELS.map((label, i) => {
      const b = el(d, 'button', { type: 'button', class: 'csat-option', 'aria-pressed': 'false', 'aria-label': `${i + 1} de 5: ${label}`, title: label }, c.scale === 'emojis' ? CSAT_EMOJIS[i]! : String(i + 1));
      b.addEventListener('click', () => {
        this.rating = i + 1;
        for (const [j, other] of buttons.entries()) other.setAttribute('aria-pressed', String(j === i));
        submit.disabled = false;
      });
      return b;
    });
    group.append(...buttons);
    const id = `bw-csat-${this.messageId}`;
    const comment = el(d, 'textarea', { id, class: 'csat-comment', rows: '2', maxlength: String(CSAT_COMMENT_MAX), placeholder: texts.csatComment });
    const error = el(d, 'p', { class: 'csat-error', role: 'alert' });
    const submit = el(d, 'button', { type: 'button', class: 'csat-submit' }, texts.csatSend);
    submit.disabled = true;
    submit.addEventListener('click', () => {
      if (!this.rating) return;
      submit.disabled = true;
      error.textContent = '';
      void this.answer(this.rating, comment.value.trim() || null).then((res) => {
        if (res.ok) return this.update(res.csat);
        if (res.closed) {
          this.update({ ...c, state: 'expired' });
          this.root.prepend(el(d, 'p', { class: 'csat-error', role: 'alert' }, res.message));
          return;
        }
        error.textContent = res.message;
        submit.disabled = false;
      });
    });
    this.root.append(group, el(d, 'label', { for: id, class: 'csat-label' }, texts.csatCommentLabel), comment, submit, error);
  }
}
