import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
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
import { PresenceDot } from '../common/PresenceDot';
import type { Session } from '../providers/session';
import { contractTexts } from '../contracts/texts';
import type { PresenceState } from './availability';

/**
 * The header's menus (areas on a phone, the user menu, availability), loaded the first time one opens: the
 * menu stack (popover, modal, focus trap, transitions, list items) is not part of the inbox's first paint
 * (docs/performance.md "UI weight"). Their buttons stay in Header, UserMenu and AvailabilityMenu.
 */
interface MenuProps {
  anchor: HTMLElement | null;
  onClose: () => void;
}

export interface Area {
  to: string;
  icon: ReactNode;
  label: string;
  /** Unread items of the area (the team chat's messages), shown beside its name. */
  badge?: number;
}

export function AreasMenuList({ anchor, onClose, areas, current }: MenuProps & { areas: Area[]; current: Area | undefined }) {
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {areas.map((a) => (
        <MenuItem key={a.to} component={RouterLink} to={a.to} selected={a === current} onClick={onClose} sx={{ minHeight: 48 }}>
          <ListItemIcon>{a.icon}</ListItemIcon>
          <ListItemText>{a.label}</ListItemText>
          {a.badge ? <Chip size="small" color="error" label={a.badge > 99 ? '99+' : a.badge} sx={{ ml: 1 }} /> : null}
        </MenuItem>
      ))}
    </Menu>
  );
}

export function UserMenuList({ anchor, onClose, session, onSwitch, onCreate }: MenuProps & { session: Session; onSwitch: (workspaceId: number) => void; onCreate: () => void }) {
  const t = texts.layout.userMenu;
  const { user, workspace } = session;
  return (
    <Menu
      id="user-menu"
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
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
      <MenuItem component={RouterLink} to="/settings/account/profile" onClick={onClose}>
        <ListItemIcon>
          <Settings fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t.settings}</ListItemText>
      </MenuItem>
      {workspace.accessLevel >= 6 ? (
        <MenuItem component={RouterLink} to="/settings/billing/license" onClick={onClose}>
          <ListItemIcon>
            <CreditCard fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t.billing}</ListItemText>
        </MenuItem>
      ) : null}
      {/* The leftover contracts area (docs/contracts.md), level 6+: here rather than in the full header bar. */}
      {workspace.accessLevel >= 6 ? (
        <MenuItem component={RouterLink} to="/contracts" onClick={onClose}>
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
              onClose();
              if (!current) onSwitch(w.workspaceId);
            }}
          >
            <ListItemIcon>{current ? <Check fontSize="small" aria-label={t.current} /> : <NameAvatar name={w.workspace} avatar={w.avatar} size={20} variant="rounded" />}</ListItemIcon>
            <ListItemText>{w.workspace}</ListItemText>
          </MenuItem>
        );
      })}
      <MenuItem
        onClick={() => {
          onClose();
          onCreate();
        }}
      >
        <ListItemIcon>
          <Add fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t.newWorkspace}</ListItemText>
      </MenuItem>
      <Divider />
      <MenuItem component={RouterLink} to="/user/logout" onClick={onClose}>
        <ListItemIcon>
          <Logout fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t.logout}</ListItemText>
      </MenuItem>
    </Menu>
  );
}

export function AvailabilityMenuList({ anchor, onClose, states, current, onChoose }: MenuProps & { states: PresenceState[]; current: PresenceState; onChoose: (state: PresenceState) => void }) {
  const t = texts.layout.availability;
  const help: Record<PresenceState, string> = { online: t.onlineHelp, ausente: t.ausenteHelp, offline: t.offlineHelp };
  return (
    <Menu
      id="availability-menu"
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
      slotProps={{ list: { 'aria-labelledby': 'availability-button' } }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {states.map((state) => (
        <MenuItem key={state} selected={state === current} aria-current={state === current ? 'true' : undefined} onClick={() => onChoose(state)} sx={{ minHeight: 48 }}>
          <ListItemIcon>
            <PresenceDot state={state} size={12} />
          </ListItemIcon>
          <ListItemText primary={t[state]} secondary={help[state]} />
        </MenuItem>
      ))}
    </Menu>
  );
}
