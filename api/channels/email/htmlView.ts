import sanitizeHtml from 'sanitize-html';
import type { Config } from '../../config';
import { signLink, verifyLink } from '../../http/signedLink';

/**
 * An e-mail's HTML with its remote images, on the agent's request (docs/channels/email.md "Imagens
 * remotas"). The inbox shows every e-mail in a srcdoc frame under the app's CSP, where nothing remote
 * loads. "Mostrar imagens" asks the api for a short-lived signed URL of the same HTML served as its own
 * document, with its own CSP that lets images (only images and styles) load over https, and the frame
 * switches to it. The document is sandboxed by its CSP too, so even opened on its own no script runs.
 */
const TTL_SECONDS = 600;
const PURPOSE = 'balcao:mail:html-view:v1';

export function htmlViewPath(messageId: number): string {
  return `/api/integrations/mail/html/${messageId}`;
}

/** A relative URL (the frame loads it from the app's own origin), valid for ten minutes. */
export function signedHtmlViewUrl(config: Pick<Config, 'jwtSecret'>, messageId: number, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + TTL_SECONDS;
  return `${htmlViewPath(messageId)}?exp=${exp}&sig=${signLink(config.jwtSecret, PURPOSE, [messageId], exp)}`;
}

export function verifyHtmlView(config: Pick<Config, 'jwtSecret'>, messageId: number, exp: unknown, sig: unknown, now = Date.now()): boolean {
  return verifyLink(config.jwtSecret, PURPOSE, [messageId], exp, sig, now);
}

/**
 * The document's policy: no script (CSP sandbox without allow-scripts: an opaque origin), nothing fetched
 * but images, styles and fonts over https (and data:), no forms, no frames, no base URL changes; links
 * open outside in a new tab. Only the app may frame it.
 */
export const HTML_VIEW_CSP = [
  "default-src 'none'",
  'img-src https: data:',
  "style-src 'unsafe-inline' https:",
  'font-src https: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');

/** What an e-mail's HTML keeps: its text, layout, styles, images and links, nothing that runs or redirects. */
const EMAIL_TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  'img', 'picture', 'source', 'style', 'font', 'center', 'big', 'tt', 'strike', 'del', 'ins', 'details', 'summary', 'span', 'div',
];
const EMAIL_ATTRIBUTES = [
  'style', 'class', 'id', 'title', 'lang', 'dir', 'role', 'align', 'valign', 'width', 'height', 'bgcolor', 'background', 'color',
  'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan', 'nowrap', 'face', 'size', 'alt', 'span', 'start', 'type',
];

/**
 * The e-mail's HTML through a parser-based sanitizer (sanitize-html over htmlparser2), not pattern passes:
 * whatever the markup looks like (`<me<meta>ta …>`, `<scr<script>ipt>`), only the allowed elements and
 * attributes come out, and every leftover `<` is text. No script, event handler, `javascript:` link, form,
 * frame, `<meta>` (a refresh would move the frame), `<base>` or `<link>` survives; images (https and data:),
 * inline and `<style>` styles, tables and links stay for the view's own CSP to govern.
 */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: EMAIL_TAGS,
    allowVulnerableTags: true,
    disallowedTagsMode: 'discard',
    allowedAttributes: {
      '*': EMAIL_ATTRIBUTES,
      a: ['href', 'name'],
      img: ['src', 'srcset', 'sizes'],
      source: ['srcset', 'media', 'sizes'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['https', 'data'], source: ['https', 'data'] },
    allowProtocolRelative: false,
    parseStyleAttributes: false,
  });
}

export function htmlViewDocument(html: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8"><base target="_blank">' +
    '<style>body{font:14px/1.45 sans-serif;margin:8px;color:#1d1d1d;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style>' +
    `</head><body>${sanitizeEmailHtml(html)}</body></html>`
  );
}
