import { lazy, useEffect } from 'react';
import { Route } from 'react-router';
import CssBaseline from '@mui/material/CssBaseline';
import { AccessDenied, AdminContext, AuthenticationError, CoreAdminUI, CustomRoutes, Error, LoadingPage, localStorageStore, Notification } from 'react-admin';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { startTokenRenewal } from './providers/tokenRenewal';
import { i18nProvider } from './i18n/i18nProvider';
import { themeOptions } from './theme/muiTheme';
import { texts } from './i18n/ptBR';
import { AppLayout } from './layout/AppLayout';
import { NotFound } from './layout/NotFound';
import { inboxRoutes } from './inbox';
import { searchRoutes } from './search';
import { reportsRoutes } from './reports';
import { campaignsRoutes } from './campaigns';
import { contactsRoutes } from './contacts';
import { powerUpsRoutes } from './powerUps';
import { billingRoutes } from './billing';
import { contractsRoutes } from './contracts';

const store = localStorageStore();
const SettingsRoutes = lazy(() => import('./settings/SettingsRoutes'));

/**
 * The logged-in app: react-admin inside our router (it detects the BrowserRouter and uses it), every
 * SPEC §2 route at its exact path. Login lives at /user/login, outside react-admin.
 *
 * This is react-admin's <Admin> taken apart (AdminContext + CoreAdminUI + Notification) with our layout
 * and pages passed in, so its default layout, menu, login page and English messages stay out of the
 * inbox route's JavaScript (bench/uiWeight.ts).
 */
export default function AdminApp() {
  useEffect(() => startTokenRenewal(), []);
  return (
    <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} theme={themeOptions} store={store}>
      <CssBaseline enableColorScheme />
      <CoreAdminUI
        title={texts.brand}
        layout={AppLayout}
        catchAll={NotFound}
        loading={LoadingPage}
        error={Error}
        accessDenied={AccessDenied}
        authenticationError={AuthenticationError}
        loginPage={false}
        requireAuth
        disableTelemetry
      >
        <CustomRoutes>
          {inboxRoutes}
          {searchRoutes}
          {reportsRoutes}
          {campaignsRoutes}
          {contactsRoutes}
          {powerUpsRoutes}
          {billingRoutes}
          {contractsRoutes}
          <Route path="/settings/*" element={<SettingsRoutes />} />
        </CustomRoutes>
      </CoreAdminUI>
      <Notification />
    </AdminContext>
  );
}
