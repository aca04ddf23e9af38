import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { themeVar } from '../theme/colors';
import { sidebarItemSx } from '../inbox/InboxSidebar';
import { useSession } from '../providers/session';

const t = texts.settings;

/** The settings side menu (SPEC §2 Settings); later issues add the workspace and integration sections. */
export function SettingsLayout() {
  const session = useSession();
  const level = session?.workspace.accessLevel ?? 0;
  const account = [
    { to: '/settings/account/profile', label: t.profile.title },
    { to: '/settings/account/workspace', label: t.workspace.menu },
    { to: '/settings/account/preferences', label: t.preferences.menu },
    // SPEC §6: the billing tab of the settings needs level 9 (the user menu shows it from 6).
    ...(level >= 9 ? [{ to: '/settings/billing/license', label: t.billing }] : []),
  ];
  // SPEC §6: workspace settings (channels, members, groups…) from level 6.
  const team = texts.settingsResources;
  const workspace = [
    ...(level >= 6
      ? [
          { to: '/settings/channels', label: texts.channels.menu },
          { to: '/settings/members', label: team.members.menu },
          { to: '/settings/groups', label: team.groups.menu },
          { to: '/settings/business-hours', label: texts.businessHours.menu },
        ]
      : []),
    // SPEC §6: tags and quick phrases are open to everyone.
    { to: '/settings/tags', label: team.tags.menu },
    { to: '/settings/quick-phrases', label: team.quickPhrases.menu },
    ...(level >= 6 ? [{ to: '/settings/assignment-rules', label: texts.assignmentRules.menu }] : []),
  ];
  // SPEC §2 Integrations (level 6+, SPEC §6).
  if (level >= 6) workspace.push({ to: '/settings/webhook', label: texts.webhook.menu }, { to: '/settings/plugins', label: texts.integrations.menuPlugins }, { to: '/settings/api', label: texts.integrations.menuApi });
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
      <Box component="nav" aria-label={t.menuLabel} sx={{ width: 220, flexShrink: 0, bgcolor: themeVar('sidebarBg'), py: 1.5, overflowY: 'auto' }}>
        <Typography component="h2" variant="overline" sx={{ px: 3, color: themeVar('text'), opacity: 0.8 }}>
          {t.account}
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {account.map((item) => (
            <li key={item.to}>
              <Box component={NavLink} to={item.to} sx={sidebarItemSx}>
                {item.label}
              </Box>
            </li>
          ))}
        </Box>
        {workspace.length > 0 ? (
          <>
            <Typography component="h2" variant="overline" sx={{ px: 3, mt: 2, display: 'block', color: themeVar('text'), opacity: 0.8 }}>
              {texts.channels.menuSection}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
              {workspace.map((item) => (
                <li key={item.to}>
                  <Box component={NavLink} to={item.to} sx={sidebarItemSx}>
                    {item.label}
                  </Box>
                </li>
              ))}
            </Box>
          </>
        ) : null}
      </Box>
      <Box sx={{ flex: 1, overflow: 'auto', p: { xs: 2, md: 4 } }}>
        <Suspense fallback={<LinearProgress aria-label={texts.common.loading} />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
