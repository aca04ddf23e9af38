/**
 * An e-mail's HTML as the inbox shows it while remote content is blocked (docs/channels/email.md). The frame
 * also carries its own CSP, but a browser may fetch an image before it has read a policy given in a <meta>
 * (its preload scanner runs ahead of the parser), so nothing the frame could fetch is left in the document:
 * images, sources and posters lose their addresses (kept as data-blocked-*), stylesheet links and remote
 * url(...) in styles go. data: images stay (they fetch nothing).
 */

/** Tags that could run code, move the frame elsewhere or change how its links resolve. */
function stripDangerous(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<meta\b[^>]*>/gi, '')
    .replace(/<base\b[^>]*>/gi, '')
    .replace(/<link\b[^>]*>/gi, '');
}

/** Renames the attributes of a tag that fetch (src, srcset, poster, background) so they fetch nothing. */
function disarmTag(tag: string): string {
  return tag.replace(/(\s)(src|srcset|poster|background|lowsrc|dynsrc)(\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (all, space: string, name: string, eq: string, value: string) =>
    /^["']?\s*data:/i.test(value) ? all : `${space}data-blocked-${name.toLowerCase()}${eq}${value}`,
  );
}

/** The e-mail's HTML with nothing left that would fetch from the network. */
export function blockedEmailHtml(html: string): string {
  return stripDangerous(html)
    .replace(/<(img|image|source|video|audio|input|body|table|td|th|tr|embed|object|iframe|frame|track)\b[^>]*>/gi, disarmTag)
    .replace(/url\(\s*(["']?)(?!\s*data:)[^)]*\)/gi, 'none');
}

/** Whether the e-mail names something remote to show (images, backgrounds, styles): only then is "Mostrar imagens" offered. */
export function hasRemoteContent(html: string): boolean {
  return /<img\b[^>]*\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html) || /\bbackground\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html) || /url\(\s*["']?\s*(?:https?:)?\/\//i.test(html);
}
