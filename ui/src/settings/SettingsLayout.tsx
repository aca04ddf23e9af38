import { Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import MenuIcon from '@mui/icons-material/Menu';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { themeVar } from '../theme/colors';
import { sidebarItemSx } from '../inbox/InboxSidebar';
import { useSession } from '../providers/session';

const t = texts.settings;
const team = texts.settingsResources;

interface MenuItem {
  to: string;
  label: string;
  /** SPEC §6: the lowest access level the entry is shown to (the route says the same with RequireLevel). */
  min: number;
}

/** SPEC §2 Settings: Account, Workspace and Integrations, in SPEC's order. */
const SECTIONS: { title: string; items: MenuItem[] }[] = [
  {
    title: t.account,
    items: [
      { to: '/settings/account/profile', label: t.profile.title, min: 0 },
      // SPEC §6: workspace settings from 6; below, the route sends to the profile (settings/index.tsx).
      { to: '/settings/account/workspace', label: t.workspace.menu, min: 6 },
      { to: '/settings/account/preferences', label: t.preferences.menu, min: 0 },
      // The billing tab of the settings needs level 9 (the user menu shows Assinatura from 6).
      { to: '/settings/billing/license', label: t.billing, min: 9 },
    ],
  },
  {
    title: texts.channels.menuSection,
    items: [
      { to: '/settings/channels', label: texts.channels.menu, min: 6 },
      { to: '/settings/members', label: team.members.menu, min: 6 },
      { to: '/settings/groups', label: team.groups.menu, min: 6 },
      { to: '/settings/business-hours', label: texts.businessHours.menu, min: 6 },
      // Tags and quick phrases are open to everyone.
      { to: '/settings/tags', label: team.tags.menu, min: 0 },
      { to: '/settings/quick-phrases', label: team.quickPhrases.menu, min: 0 },
      { to: '/settings/assignment-rules', label: texts.assignmentRules.menu, min: 6 },
      { to: '/settings/bot', label: texts.bots.menu, min: 6 },
    ],
  },
  {
    title: texts.integrations.menuSection,
    items: [
      { to: '/settings/webhook', label: texts.webhook.menu, min: 6 },
      { to: '/settings/plugins', label: texts.integrations.menuPlugins, min: 6 },
      { to: '/settings/api', label: texts.integrations.menuApi, min: 6 },
    ],
  },
];

function SettingsMenu({ sections, onPick }: { sections: typeof SECTIONS; onPick?: () => void }) {
  return (
    <Box component="nav" aria-label={t.menuLabel} sx={{ width: 220, flexShrink: 0, bgcolor: themeVar('sidebarBg'), py: 1.5, overflowY: 'auto', height: '100%' }}>
      {sections.map((section, i) => (
        <Box key={section.title} sx={{ mt: i === 0 ? 0 : 2 }}>
          <Typography component="h2" variant="overline" sx={{ px: 3, display: 'block', color: themeVar('text'), opacity: 0.8 }}>
            {section.title}
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
            {section.items.map((item) => (
              <li key={item.to}>
                <Box component={NavLink} to={item.to} sx={sidebarItemSx} onClick={onPick}>
                  {item.label}
                </Box>
              </li>
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The settings side menu (SPEC §2 Settings), each entry shown from the level SPEC §6 allows it. Below 900 px
 * the menu and the page do not both fit: one pane at a time (DESIGN §8), the menu behind a button that names
 * the page open.
 */
export function SettingsLayout() {
  const session = useSession();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const level = session?.workspace.accessLevel ?? 0;
  const sections = SECTIONS.map((s) => ({ ...s, items: s.items.filter((item) => level >= item.min) })).filter((s) => s.items.length > 0);
  const current = sections.flatMap((s) => s.items).find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
      <Box sx={{ display: { xs: 'none', md: 'flex' } }}>
        <SettingsMenu sections={sections} />
      </Box>
      <Drawer open={menuOpen} onClose={() => setMenuOpen(false)} sx={{ display: { md: 'none' } }}>
        <SettingsMenu sections={sections} onPick={() => setMenuOpen(false)} />
      </Drawer>
      <Box sx={{ flex: 1, minWidth: 0, overflow: 'auto', p: { xs: 2, md: 4 } }}>
        <Button
          startIcon={<MenuIcon />}
          onClick={() => setMenuOpen(true)}
          aria-haspopup="true"
          aria-expanded={menuOpen}
          sx={{ display: { xs: 'inline-flex', md: 'none' }, mb: 1, ml: -1 }}
        >
          {current?.label ?? t.menuLabel}
        </Button>
        <Suspense fallback={<LinearProgress aria-label={texts.common.loading} />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
