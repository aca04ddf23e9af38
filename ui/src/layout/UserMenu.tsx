import { lazy, Suspense, useEffect, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { shellTexts as texts } from '../i18n/shellTexts';
import { NameAvatar } from '../common/NameAvatar';
import { LazyPart, preloadableLazy, useOpenedOnce, whenIdle } from '../common/lazyLoad';
import type { Session } from '../providers/session';
import { useSwitchWorkspace } from './useSwitchWorkspace';
import { AvailabilityMenu } from './AvailabilityMenu';

const t = texts.layout.userMenu;

// The dialog brings the form stack (react-hook-form, zod): loaded the first time it opens.
const NewWorkspaceDialog = lazy(() => import('./NewWorkspaceDialog').then((m) => ({ default: m.NewWorkspaceDialog })));
// The menu itself (HeaderMenus.tsx) loads when the browser is idle after the first paint.
const UserMenuList = preloadableLazy(() => import('./HeaderMenus').then((m) => m.UserMenuList));

/** SPEC §2 user menu: settings, billing and contracts (level 6+), the user's workspaces, new workspace, logout; the availability menu beside it. */
export function UserMenu({ session }: { session: Session }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [creating, setCreating] = useState(false);
  const switchWorkspace = useSwitchWorkspace();
  const { user, workspace } = session;
  const open = Boolean(anchor);
  const opened = useOpenedOnce(open);
  useEffect(() => whenIdle(() => void UserMenuList.preload()), []);
  const close = () => setAnchor(null);

  return (
    <>
      {/* Online / Ausente / Offline, just before the user's avatar (docs/assignment.md "Availability"). */}
      <AvailabilityMenu />
      <ButtonBase
        id="user-menu-button"
        aria-label={t.open}
        aria-haspopup="menu"
        aria-controls={open ? 'user-menu' : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
        sx={{ borderRadius: 2, px: 1, py: 0.5, gap: 1, color: 'inherit', '&:focus-visible': { outline: '2px solid #fff' } }}
      >
        <NameAvatar name={user.name} avatar={user.avatar} size={32} sx={{ border: '2px solid rgba(255,255,255,0.8)' }} />
        {/* A long name or workspace ends in an ellipsis (the menu shows it whole) so the header never overflows. */}
        <Box sx={{ textAlign: 'left', display: { xs: 'none', sm: 'block' }, maxWidth: 160, '& > *': { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}>
          <Typography variant="body2" fontWeight={600} lineHeight={1.2}>
            {user.name}
          </Typography>
          <Typography variant="caption" lineHeight={1.2} sx={{ opacity: 0.85 }} data-testid="current-workspace">
            {workspace.workspace}
          </Typography>
        </Box>
      </ButtonBase>
      {opened ? (
        <LazyPart>
          <UserMenuList anchor={anchor} onClose={close} session={session} onSwitch={(id) => void switchWorkspace(id)} onCreate={() => setCreating(true)} />
        </LazyPart>
      ) : null}
      {creating ? (
        <Suspense fallback={null}>
          <NewWorkspaceDialog open onClose={() => setCreating(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
