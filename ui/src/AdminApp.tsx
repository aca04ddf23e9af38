import { useEffect } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { startTokenRenewal } from './providers/tokenRenewal';
import { i18nProvider } from './i18n/i18nProvider';
import { themeOptions } from './theme/muiTheme';
import { texts } from './i18n/ptBR';
import { AppLayout } from './layout/AppLayout';
import { NotFound } from './layout/NotFound';
import { inboxRoutes } from './inbox';
import { reportsRoutes } from './reports';
import { campaignsRoutes } from './campaigns';
import { settingsRoutes } from './settings';

/**
 * The logged-in app: react-admin inside our router (it detects the BrowserRouter and uses it), every
 * SPEC §2 route at its exact path. Login lives at /user/login, outside react-admin.
 */
export default function AdminApp() {
  useEffect(() => startTokenRenewal(), []);
  return (
    <Admin
      title={texts.brand}
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      layout={AppLayout}
      theme={themeOptions}
      catchAll={NotFound}
      loginPage={false}
      requireAuth
      disableTelemetry
    >
      <CustomRoutes>
        {inboxRoutes}
        {reportsRoutes}
        {campaignsRoutes}
        {settingsRoutes}
      </CustomRoutes>
    </Admin>
  );
}
