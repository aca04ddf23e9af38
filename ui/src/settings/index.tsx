import { lazy, type ReactNode } from 'react';
import { Navigate, Route } from 'react-router';
import { useSession } from '../providers/session';
import { SettingsLayout } from './SettingsLayout';
import { channelsRoutes } from './channels';
import { pluginsRoutes } from './plugins';
import { apiTokenRoutes } from './api';
import { membersRoutes } from './members';
import { groupsRoutes } from './groups';
import { tagsRoutes } from './tags';
import { quickPhrasesRoutes } from './quickPhrases';
import { webhookRoutes } from './webhook';
import { businessHoursRoutes } from './businessHours';
import { assignmentRulesRoutes } from './assignmentRules';
import { botRoutes } from './bot';
import { billingSettingsRoutes } from './billing';

const ProfilePage = lazy(() => import('./account/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const PasswordPage = lazy(() => import('./account/PasswordPage').then((m) => ({ default: m.PasswordPage })));
const WorkspacePage = lazy(() => import('./account/WorkspacePage').then((m) => ({ default: m.WorkspacePage })));
const PreferencesPage = lazy(() => import('./account/PreferencesPage').then((m) => ({ default: m.PreferencesPage })));

/** SPEC §6 puts workspace settings at level 6+: below, 'Geral' is not in the menu and its route opens the profile. */
function WorkspaceSettingsGuard({ children }: { children: ReactNode }) {
  const level = useSession()?.workspace.accessLevel ?? 0;
  return level >= 6 ? <>{children}</> : <Navigate to="/settings/account/profile" replace />;
}

/**
 * SPEC §2 Settings: /settings redirects to the profile; pages load on demand. Mounted by SettingsRoutes
 * under AdminApp's `/settings/*`, so the paths here are relative to /settings (the layout route has none).
 */
export const settingsRoutes = [
  <Route key="settings" element={<SettingsLayout />}>
    <Route index element={<Navigate to="/settings/account/profile" replace />} />
    <Route path="account" element={<Navigate to="/settings/account/profile" replace />} />
    <Route path="account/profile" element={<ProfilePage />} />
    <Route path="account/profile/password" element={<PasswordPage />} />
    <Route
      path="account/workspace"
      element={
        <WorkspaceSettingsGuard>
          <WorkspacePage />
        </WorkspaceSettingsGuard>
      }
    />
    <Route path="account/preferences" element={<PreferencesPage />} />
    {billingSettingsRoutes}
    {channelsRoutes}
    {pluginsRoutes}
    {apiTokenRoutes}
    {membersRoutes}
    {groupsRoutes}
    {tagsRoutes}
    {quickPhrasesRoutes}
    {webhookRoutes}
    {businessHoursRoutes}
    {assignmentRulesRoutes}
    {botRoutes}
    <Route path="*" element={<Navigate to="/settings/account/profile" replace />} />
  </Route>,
];
