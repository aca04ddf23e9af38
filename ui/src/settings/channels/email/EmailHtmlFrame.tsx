import Box from '@mui/material/Box';

/**
 * What the frame's document may load: nothing remote (remote images, fonts, styles stay blocked; the page's
 * own CSP applies to srcdoc frames too), inline styles and data: images only.
 */
const FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/** Tags that could move the frame elsewhere or change how its links resolve. */
function stripDangerous(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<meta\b[^>]*>/gi, '')
    .replace(/<base\b[^>]*>/gi, '');
}

/**
 * An e-mail's HTML body in the inbox (docs/channels/email.md): a sandboxed iframe with an opaque origin
 * (no scripts, no forms, no access to the app's storage or cookies), its own restrictive CSP, links opening
 * in a new tab outside the sandbox.
 */
export function EmailHtmlFrame({ html, title }: { html: string; title: string }) {
  const srcDoc =
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">` +
    '<base target="_blank"><style>body{font:14px/1.45 sans-serif;margin:8px;color:#1d1d1d;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style>' +
    `</head><body>${stripDangerous(html)}</body></html>`;
  return (
    <Box
      component="iframe"
      title={title}
      data-testid="email-html"
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      sx={{ display: 'block', width: '100%', minWidth: 280, height: 320, border: 0, borderRadius: 1, bgcolor: '#fff', resize: 'vertical' }}
    />
  );
}
