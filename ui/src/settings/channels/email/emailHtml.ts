import DOMPurify from 'dompurify';

/**
 * An e-mail's HTML as the inbox shows it while remote content is blocked (docs/channels/email.md). The HTML
 * is parsed and sanitized by DOMPurify (the browser's own parser, so nested or broken markup such as
 * `<me<meta>ta …>` or `<scr<script>ipt>` cannot survive as a tag): no script, event handler, `javascript:`
 * link, `<meta>`, `<base>`, `<link>`, frame, object, SVG or MathML.
 *
 * The frame also carries its own CSP, but a browser may fetch an image before it has read a policy given in a
 * <meta> (its preload scanner runs ahead of the parser), so nothing the frame could fetch is left in the
 * document: images, sources and posters lose their addresses (kept as data-blocked-*), remote url(...) and
 * @import in styles go. data: images stay (they fetch nothing).
 */

/** Attributes that make the browser fetch. */
const FETCHING = ['src', 'srcset', 'poster', 'background', 'lowsrc', 'dynsrc'];

/** A style's text with no remote url(...) and no @import left (repeated until nothing changes, so no removal can join two halves into a new one). */
function disarmCss(css: string): string {
  let out = css;
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/@import[^;]*;?/gi, '').replace(/url\(\s*(["']?)(?!\s*data:)[^)]*\)/gi, 'none');
  }
  return out;
}

let purifier: ReturnType<typeof DOMPurify> | undefined;

function blockingPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    for (const name of FETCHING) {
      const value = node.getAttribute(name);
      // srcset lists several candidates: renamed whatever it starts with.
      if (value === null || (name !== 'srcset' && /^\s*data:/i.test(value))) continue;
      node.removeAttribute(name);
      node.setAttribute(`data-blocked-${name}`, value);
    }
    const style = node.getAttribute('style');
    if (style !== null) node.setAttribute('style', disarmCss(style));
  });
  p.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) node.textContent = disarmCss(node.textContent);
  });
  purifier = p;
  return p;
}

/** The e-mail's HTML with nothing left that would run, move the frame or fetch from the network. */
export function blockedEmailHtml(html: string): string {
  return blockingPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    ADD_TAGS: ['style'],
    FORBID_TAGS: ['meta', 'base', 'link', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'script', 'noscript', 'template'],
    ADD_ATTR: ['background', 'bgcolor', 'cellpadding', 'cellspacing', 'valign', 'face', 'color', 'size'],
    FORCE_BODY: true,
  });
}

/** Whether the e-mail names something remote to show (images, backgrounds, styles): only then is "Mostrar imagens" offered. */
export function hasRemoteContent(html: string): boolean {
  return /<img\b[^>]*\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html) || /\bbackground\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html) || /url\(\s*["']?\s*(?:https?:)?\/\//i.test(html);
}
