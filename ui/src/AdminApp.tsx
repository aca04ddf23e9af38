import { lazy, useEffect, useState } from 'react';
import { Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { NotificationContextProvider } from 'react-admin';
import { startTokenRenewal } from './providers/tokenRenewal';
import { themeOptions } from './theme/muiTheme';
import { AppLayout } from './layout/AppLayout';
import { Notification } from './layout/Notification';
import { NotFound } from './layout/NotFound';
import { inboxRoutes } from './inbox';
import { searchRoutes } from './search';
import { reportsRoutes } from './reports';
import { campaignsRoutes } from './campaigns';
import { contactsRoutes } from './contacts';
import { powerUpsRoutes } from './powerUps';
import { billingRoutes } from './billing';
import { contractsRoutes } from './contracts';
import { schedulesRoutes } from './schedules';
import { kanbanRoutes } from './kanban';
import { teamChatRoutes } from './teamChat';

const SettingsRoutes = lazy(() => import('./settings/SettingsRoutes'));
const theme = createTheme(themeOptions);

/**
 * The logged-in app, every SPEC §2 route at its exact path inside our router. Login lives at /user/login and
 * App.tsx's RequireSession keeps this app for a session; httpClient logs out on a 401.
 *
 * Only what the screens use is here: react-query, the MUI theme and react-admin's notification context (the
 * `useNotify` of every screen, shown by our <Notification>). react-admin's <Admin> contexts (auth, data,
 * i18n, store, resources, its router adapter with react-router's data router) are not used by any screen
 * and were a third of the inbox route's JavaScript (bench/uiWeight.ts, docs/performance.md "UI weight").
 * The query cache lives as long as this app: logging out unmounts it, the next session starts empty.
 */
export default function AdminApp() {
  const [queryClient] = useState(() => new QueryClient());
  useEffect(() => startTokenRenewal(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        <NotificationContextProvider>
          <AppLayout>
            <Routes>
              {kanbanRoutes}
              {inboxRoutes}
              {searchRoutes}
              {reportsRoutes}
              {campaignsRoutes}
              {contactsRoutes}
              {powerUpsRoutes}
              {billingRoutes}
              {contractsRoutes}
          {schedulesRoutes}
              {teamChatRoutes}
              <Route path="/settings/*" element={<SettingsRoutes />} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </AppLayout>
          <Notification />
        </NotificationContextProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
