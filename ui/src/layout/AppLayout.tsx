import { Suspense, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { shellTexts as texts } from '../i18n/shellTexts';
import { useSession } from '../providers/session';
import { RealtimeProvider } from '../realtime/RealtimeProvider';
import { Banners } from './Banners';
import { ErrorBoundary } from './ErrorBoundary';
import { Header } from './Header';

/** react-admin layout of the logged-in app: header, banners, the page; one realtime connection. */
export function AppLayout({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return null;
  return (
    <RealtimeProvider>
      <Box sx={{ display: 'flex', flexDirection: 'column', height: '100vh', bgcolor: 'background.default' }}>
        <Link
          href="#main-content"
          sx={{ position: 'absolute', left: -9999, zIndex: 2000, '&:focus': { left: 8, top: 8, bgcolor: 'background.paper', p: 1 } }}
        >
          {texts.layout.skipToContent}
        </Link>
        <Header session={session} />
        <Banners session={session} />
        <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, minHeight: 0, overflow: 'auto', outline: 'none' }}>
          <ErrorBoundary resetKey={location.pathname}>
            <Suspense fallback={<LinearProgress aria-label={texts.common.loading} />}>{children}</Suspense>
          </ErrorBoundary>
        </Box>
      </Box>
    </RealtimeProvider>
  );
}
