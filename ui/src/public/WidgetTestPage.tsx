import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { PublicShell } from './PublicShell';

const t = texts.widgetTest;

/**
 * /widget?workspacePlatformIdentifier=… (SPEC §2): the chat widget on a page of its own, loaded exactly as
 * a customer's site loads it (widget.js with data-identifier), opened, so it can be tried before installing.
 */
export function WidgetTestPage() {
  const [params] = useSearchParams();
  const identifier = params.get('workspacePlatformIdentifier') ?? '';

  useEffect(() => {
    if (!identifier) return;
    const script = document.createElement('script');
    script.src = '/widget.js';
    script.async = true;
    script.dataset.identifier = identifier;
    script.dataset.open = 'true';
    document.body.appendChild(script);
    return () => {
      // Leaving the page (or React's development double effect) takes the widget away with the script.
      const w = (window as { BalcaoWidget?: Record<string, { destroy(): void }> }).BalcaoWidget;
      w?.[identifier]?.destroy();
      if (w) delete w[identifier];
      script.remove();
    };
  }, [identifier]);

  return (
    <PublicShell>
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Typography variant="h4" component="h1" fontWeight={700} gutterBottom>
          {t.title}
        </Typography>
        {identifier ? (
          <Typography color="text.secondary">{t.text}</Typography>
        ) : (
          <Alert severity="warning">{t.missing}</Alert>
        )}
        <Box sx={{ height: 200 }} />
      </Container>
    </PublicShell>
  );
}
