import { useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import { api, errorDescriptions } from '../../../providers/httpClient';
import { texts } from '../../../i18n/ptBR';
import { blockedEmailHtml, hasRemoteContent } from './emailHtml';

const t = texts.inbox;

/**
 * What the frame's document may load: nothing remote (remote images, fonts, styles stay blocked; the page's
 * own CSP applies to srcdoc frames too), inline styles and data: images only.
 */
const FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

const FRAME_SX = { display: 'block', width: '100%', minWidth: 280, height: 320, border: 0, borderRadius: 1, bgcolor: '#fff', resize: 'vertical' } as const;

/**
 * An e-mail's HTML body in the inbox (docs/channels/email.md): a sandboxed iframe with an opaque origin
 * (no scripts, no forms, no access to the app's storage or cookies), its own restrictive CSP, links opening
 * in a new tab outside the sandbox. Remote images stay blocked until the agent clicks "Mostrar imagens":
 * the frame then loads the same e-mail from the api's signed HTML view, whose own CSP lets images load
 * (still no script); nothing is remembered, so the next viewing starts blocked again.
 */
export function EmailHtmlFrame({ html, title, messageId }: { html: string; title: string; messageId: number }) {
  const notify = useNotify();
  const [viewUrl, setViewUrl] = useState<string>();
  const [loading, setLoading] = useState(false);
  const remote = hasRemoteContent(html);

  const showImages = async () => {
    setLoading(true);
    try {
      setViewUrl((await api<{ url: string }>(`/integrations/mail/messages/${messageId}/html-view`, { method: 'POST' })).url);
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setLoading(false);
    }
  };

  const srcDoc =
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">` +
    '<base target="_blank"><style>body{font:14px/1.45 sans-serif;margin:8px;color:#1d1d1d;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style>' +
    `</head><body>${blockedEmailHtml(html)}</body></html>`;
  return (
    <>
      {remote && !viewUrl ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5, flexWrap: 'wrap' }}>
          <Typography sx={{ fontSize: 12, color: 'text.secondary' }}>{t.imagesBlocked}</Typography>
          <Button size="small" startIcon={<ImageOutlined />} onClick={() => void showImages()} disabled={loading}>
            {t.showImages}
          </Button>
        </Box>
      ) : null}
      {viewUrl ? (
        <Box
          component="iframe"
          title={title}
          data-testid="email-html"
          data-images="shown"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          src={viewUrl}
          sx={FRAME_SX}
        />
      ) : (
        <Box
          component="iframe"
          title={title}
          data-testid="email-html"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          srcDoc={srcDoc}
          sx={FRAME_SX}
        />
      )}
    </>
  );
}
