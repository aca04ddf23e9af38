import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { shellTexts as texts } from './i18n/shellTexts';
import { useSession } from './providers/session';
import { PUBLIC_PAGE_PATHS } from './public/routes';
import { ServerPage } from './public/ServerPage';

// Lazy chunks: the /user pages and the logged-in app (react-admin). The public site is prerendered HTML served
// by the api (docs/public-site.md); ServerPage hands its addresses back to the server.
const AuthRoutes = lazy(() => import('./auth/AuthRoutes'));
const AdminApp = lazy(() => import('./AdminApp'));
const WidgetTestPage = lazy(() => import('./public/WidgetTestPage').then((m) => ({ default: m.WidgetTestPage })));

function PageLoading() {
  return (
    <div role="status" aria-label={texts.common.loading} style={{ display: 'grid', placeItems: 'center', height: '100vh', color: '#0f766e', fontFamily: 'system-ui, sans-serif' }}>
      {texts.common.loading}
    </div>
  );
}

/** SPEC §2 Logged-in area: without a session, go to login (and come back afterwards). */
function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/user/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <>{children}</>;
}

function Home() {
  const session = useSession();
  return session ? <Navigate to="/inbox" replace /> : <ServerPage />;
}

export function App() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route path="/" element={<Home />} />
        {PUBLIC_PAGE_PATHS.filter((p) => p !== '/').map((p) => (
          <Route key={p} path={p} element={<ServerPage />} />
        ))}
        <Route path="/user/*" element={<AuthRoutes />} />
        {/* The addresses people type for the account pages (a bare /login once landed on the app's 404 after logging in). */}
        <Route path="/login" element={<Navigate to="/user/login" replace />} />
        <Route path="/register" element={<Navigate to="/user/register" replace />} />
        <Route path="/signup" element={<Navigate to="/user/register" replace />} />
        <Route path="/widget" element={<WidgetTestPage />} />
        <Route
          path="*"
          element={
            <RequireSession>
              <AdminApp />
            </RequireSession>
          }
        />
      </Routes>
    </Suspense>
  );
}
