import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Check from '@mui/icons-material/Check';
import CreditCard from '@mui/icons-material/CreditCard';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Logout from '@mui/icons-material/Logout';
import Settings from '@mui/icons-material/Settings';
import { shellTexts as texts } from '../i18n/shellTexts';
import { NameAvatar } from '../common/NameAvatar';
import type { Session } from '../providers/session';
import { useSwitchWorkspace } from './useSwitchWorkspace';
import { AvailabilityMenu } from './AvailabilityMenu';
import { contractTexts } from '../contracts/texts';

const t = texts.layout.userMenu;

// The dialog brings the form stack (react-hook-form, zod): loaded the first time it opens.
const NewWorkspaceDialog = lazy(() => import('./NewWorkspaceDialog').then((m) => ({ default: m.NewWorkspaceDialog })));

/** SPEC §2 user menu: settings, billing and contracts (level 6+), the user's workspaces, new workspace, logout; the availability menu beside it. */
export function UserMenu({ session }: { session: Session }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [creating, setCreating] = useState(false);
  const switchWorkspace = useSwitchWorkspace();
  const { user, workspace } = session;
  const open = Boolean(anchor);
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
        <Box sx={{ textAlign: 'left', display: { xs: 'none', sm: 'block' } }}>
          <Typography variant="body2" fontWeight={600} lineHeight={1.2}>
            {user.name}
          </Typography>
          <Typography variant="caption" lineHeight={1.2} sx={{ opacity: 0.85 }} data-testid="current-workspace">
            {workspace.workspace}
          </Typography>
        </Box>
      </ButtonBase>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={open}
        onClose={close}
        variant="menu"
        slotProps={{ list: { 'aria-labelledby': 'user-menu-button', dense: true } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <ListSubheader sx={{ lineHeight: 1.4, py: 1, color: 'text.primary' }}>
          <Typography component="span" display="block" fontWeight={600}>
            {user.name}
          </Typography>
          <Typography component="span" display="block" variant="body2" color="text.secondary">
            {user.email}
          </Typography>
        </ListSubheader>
        <Divider />
        <MenuItem component={RouterLink} to="/settings/account/profile" onClick={close}>
          <ListItemIcon>
            <Settings fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t.settings}</ListItemText>
        </MenuItem>
        {workspace.accessLevel >= 6 ? (
          <MenuItem component={RouterLink} to="/settings/billing/license" onClick={close}>
            <ListItemIcon>
              <CreditCard fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t.billing}</ListItemText>
          </MenuItem>
        ) : null}
        {/* The leftover contracts area (docs/contracts.md), level 6+: here rather than in the full header bar. */}
        {workspace.accessLevel >= 6 ? (
          <MenuItem component={RouterLink} to="/contracts" onClick={close}>
            <ListItemIcon>
              <DescriptionOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{contractTexts.nav}</ListItemText>
          </MenuItem>
        ) : null}
        <Divider />
        <ListSubheader sx={{ lineHeight: '32px' }}>{t.workspaces}</ListSubheader>
        {user.workspaces.map((w) => {
          const current = w.workspaceId === workspace.workspaceId;
          return (
            <MenuItem
              key={w.workspaceId}
              selected={current}
              aria-current={current ? 'true' : undefined}
              onClick={() => {
                close();
                if (!current) void switchWorkspace(w.workspaceId);
              }}
            >
              <ListItemIcon>{current ? <Check fontSize="small" aria-label={t.current} /> : <NameAvatar name={w.workspace} avatar={w.avatar} size={20} variant="rounded" />}</ListItemIcon>
              <ListItemText>{w.workspace}</ListItemText>
            </MenuItem>
          );
        })}
        <MenuItem
          onClick={() => {
            close();
            setCreating(true);
          }}
        >
          <ListItemIcon>
            <Add fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t.newWorkspace}</ListItemText>
        </MenuItem>
        <Divider />
        <MenuItem component={RouterLink} to="/user/logout" onClick={close}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t.logout}</ListItemText>
        </MenuItem>
      </Menu>
      {creating ? (
        <Suspense fallback={null}>
          <NewWorkspaceDialog open onClose={() => setCreating(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
