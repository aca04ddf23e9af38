import type { WidgetItem } from './types';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the link. */
const TRAILING = /[.,;:!?)\]]+$/;

/** Only http(s) addresses become links; anything else (javascript:, data:…) stays text. */
export function safeHttpUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function link(doc: Document, href: string, text: string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer nofollow';
  a.textContent = text;
  return a;
}

/**
 * Message text as DOM: text nodes, with http(s) addresses as links. Never innerHTML: message content is
 * written by people outside the page and must not become markup in a customer's site.
 */
export function renderText(doc: Document, text: string, into: Node): void {
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    let raw = match[0];
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    raw = raw.slice(0, raw.length - trailing.length);
    const href = safeHttpUrl(raw);
    if (!href) continue;
    if (start > last) into.appendChild(doc.createTextNode(text.slice(last, start)));
    into.appendChild(link(doc, href, raw));
    last = start + raw.length;
  }
  if (last < text.length) into.appendChild(doc.createTextNode(text.slice(last)));
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} MB`;
}

/** A message's content: text (trailing newline of the Delta dropped) and files as download links, images as previews. */
export function renderContent(doc: Document, items: WidgetItem[], into: HTMLElement): void {
  const text = items
    .filter((i): i is { insert: string } => 'insert' in i && typeof i.insert === 'string')
    .map((i) => i.insert)
    .join('')
    .replace(/\n+$/, '');
  if (text) {
    const p = doc.createElement('div');
    p.className = 'text';
    renderText(doc, text, p);
    into.appendChild(p);
  }
  for (const item of items) {
    if (!('file' in item) || !item.file) continue;
    const href = safeHttpUrl(item.file.url);
    const box = doc.createElement('div');
    box.className = 'file';
    if (href && /^image\/(png|jpeg|gif|webp)$/.test(item.file.mime)) {
      const img = doc.createElement('img');
      img.src = href;
      img.alt = item.file.fileName;
      img.loading = 'lazy';
      box.appendChild(img);
    }
    const label = `${item.file.fileName} (${formatSize(item.file.size)})`;
    if (href) {
      const a = link(doc, href, label);
      a.setAttribute('download', item.file.fileName);
      box.appendChild(a);
    } else {
      box.appendChild(doc.createTextNode(label));
    }
    into.appendChild(box);
  }
}
