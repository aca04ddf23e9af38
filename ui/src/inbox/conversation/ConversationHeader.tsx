import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Replay from '@mui/icons-material/Replay';
import Close from '@mui/icons-material/Close';
import ViewSidebarOutlined from '@mui/icons-material/ViewSidebarOutlined';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { NameAvatar } from '../../common/NameAvatar';
import { PresenceDot } from '../../common/PresenceDot';
import { presenceOf } from '../../layout/availability';
import { texts } from '../../i18n/ptBR';
import { useSession } from '../../providers/session';
import { format } from '../../i18n/format';
import { ChannelIcon, channelLabel } from '../ChannelIcon';
import { TagChips } from '../TagChips';
import { useTagMenu } from './TagMenu';
import { useActiveBots, useAgents, useGroups, useTags } from '../queries';
import type { useConversationActions } from '../useConversationActions';
import type { Agent, Conversation } from '../types';
import { TipIconButton } from '../../common/TipIconButton';

const t = texts.inbox.header;

function MenuButton({ label, icon, text, children, testId }: { label: string; icon: ReactNode; text: string; children: (close: () => void) => ReactNode; testId: string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={`${label}: ${text}`}>
        <Button
          size="small"
          color="inherit"
          startIcon={icon}
          endIcon={<ArrowDropDown />}
          aria-haspopup="menu"
          aria-expanded={Boolean(anchor)}
          aria-label={`${label}: ${text}`}
          data-testid={testId}
          onClick={(e) => setAnchor(e.currentTarget)}
          // Wide enough for the longest fixed label ('Atendimento manual'); longer names end in an ellipsis.
          sx={{ textTransform: 'none', maxWidth: 260, '& .label': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
        >
          <span className="label">{text}</span>
        </Button>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close} slotProps={{ paper: { sx: { maxHeight: 360, minWidth: 200 } } }}>
        {children(close)}
      </Menu>
    </>
  );
}

interface Props {
  conversation: Conversation;
  actions: ReturnType<typeof useConversationActions>;
  panelOpen: boolean;
  onTogglePanel: () => void;
  onClose: () => void;
}

/**
 * Name, channel and protocol, then the actions of SPEC §4: resolve/reopen, favourite, tags, assignee
 * ('Não atribuído'), group ('Sem Grupo') and bot (an active bot, or 'Atendimento manual' to stop the running
 * one); admins get a link to the running bot session in the Temporal Web UI.
 */
export function ConversationHeader({ conversation: c, actions, panelOpen, onTogglePanel, onClose }: Props) {
  const session = useSession();
  const { data: tags = [] } = useTags();
  const { data: agentList = [] } = useAgents();
  const { data: groups = [] } = useGroups();
  const { data: bots = [] } = useActiveBots();
  const me: Agent | null = session ? { id: session.user.id, name: session.user.name, avatar: session.user.avatar } : null;
  // Without the members list (or before it loads) the operator can still take the conversation.
  const agents = [...(me ? [me] : []), ...agentList.filter((a) => a.id !== me?.id && a.isActive !== false)];
  const assignee = c.operatorId === null ? t.unassigned : (agents.find((a) => a.id === c.operatorId)?.name ?? t.someone);
  const group = c.groupId === null ? t.noGroup : (groups.find((g) => g.id === c.groupId)?.name ?? t.someGroup);
  const tagMenu = useTagMenu({ tags, applied: c.tags, onChange: actions.setTags });
  const botLabel = c.botId === null ? t.manual : (c.botName ?? bots.find((b) => b.id === c.botId)?.name ?? t.someBot);

  return (
    <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 2, py: 1 }}>
      {/* On a phone the name keeps the first line and the actions wrap below it, right-aligned. */}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: { xs: 'wrap', sm: 'nowrap' }, rowGap: 0.5 }}>
        <NameAvatar name={c.name || '?'} avatar={c.avatar} size={40} />
        <Box sx={{ minWidth: 0, flex: 1, flexBasis: { xs: 'calc(100% - 60px)', sm: 'auto' } }}>
          <Typography component="h2" variant="subtitle1" fontWeight={700} noWrap data-testid="conversation-name">
            {c.name || c.phone || c.email || c.identifier}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary', fontSize: 12, minWidth: 0 }}>
            <ChannelIcon platformId={c.platformId} size={14} />
            <Typography component="span" noWrap sx={{ fontSize: 12 }}>
              {[c.channelName || channelLabel(c.platformId), c.protocol ? format(t.protocol, { protocol: c.protocol }) : null].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
        </Box>
        <Button
          size="small"
          // Both states are a filled button: an outlined 'Reabrir conversa' read as disabled.
          variant="contained"
          color={c.isFinished ? 'primary' : 'success'}
          startIcon={c.isFinished ? <Replay /> : <CheckCircleOutline />}
          onClick={() => void actions.toggleResolved()}
          disabled={actions.busy}
          sx={{ flexShrink: 0, ml: { xs: 'auto', sm: 0 } }}
        >
          {c.isFinished ? t.reopen : t.resolve}
        </Button>
        <Tooltip title={c.starred ? t.unstar : t.star}>
          <IconButton aria-label={c.starred ? t.unstar : t.star} aria-pressed={c.starred} onClick={() => void actions.toggleStarred()}>
            {c.starred ? <Star sx={{ color: '#f59e0b' }} /> : <StarBorder />}
          </IconButton>
        </Tooltip>
        <TipIconButton title={panelOpen ? t.hidePanel : t.showPanel} aria-pressed={panelOpen} onClick={onTogglePanel}>
          <ViewSidebarOutlined />
        </TipIconButton>
        <TipIconButton title={t.close} onClick={onClose}>
          <Close />
        </TipIconButton>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
        <MenuButton label={t.assignee} icon={<PersonOutline fontSize="small" />} text={assignee} testId="assign-menu">
          {(close) => [
            <MenuItem key="none" selected={c.operatorId === null} onClick={() => { close(); if (c.operatorId !== null) void actions.assign(null); }}>
              {t.unassigned}
            </MenuItem>,
            ...agents.map((a) => (
              <MenuItem key={a.id} selected={c.operatorId === a.id} onClick={() => { close(); if (c.operatorId !== a.id) void actions.assign(a.id); }}>
                <ListItemIcon>
                  <NameAvatar name={a.name} avatar={a.avatar} size={24} />
                </ListItemIcon>
                <ListItemText>{a.id === me?.id ? format(t.me, { name: a.name }) : a.name}</ListItemText>
                {a.id !== me?.id && a.isOnline !== undefined ? (
                  <Box component="span" data-presence={presenceOf(a)} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, ml: 1.5, fontSize: 12, color: 'text.secondary' }}>
                    <PresenceDot state={presenceOf(a)} />
                    {texts.layout.availability[presenceOf(a)]}
                  </Box>
                ) : null}
              </MenuItem>
            )),
          ]}
        </MenuButton>
        <MenuButton label={t.group} icon={<GroupsOutlined fontSize="small" />} text={group} testId="group-menu">
          {(close) => [
            <MenuItem key="none" selected={c.groupId === null} onClick={() => { close(); if (c.groupId !== null) void actions.moveToGroup(null); }}>
              {t.noGroup}
            </MenuItem>,
            ...groups.map((g) => (
              <MenuItem key={g.id} selected={c.groupId === g.id} onClick={() => { close(); if (c.groupId !== g.id) void actions.moveToGroup(g.id); }}>
                {g.name}
              </MenuItem>
            )),
          ]}
        </MenuButton>
        <MenuButton label={t.bot} icon={<SmartToyOutlined fontSize="small" />} text={botLabel} testId="bot-menu">
          {(close) => [
            <MenuItem key="manual" selected={c.botId === null} onClick={() => { close(); if (c.botId !== null) void actions.startBot(null); }}>
              {t.manual}
            </MenuItem>,
            ...bots.map((b) => (
              <MenuItem key={b.id} selected={c.botId === b.id} onClick={() => { close(); void actions.startBot(b.id); }}>
                {b.name}
              </MenuItem>
            )),
          ]}
        </MenuButton>
        {c.temporalUrl ? (
          <Tooltip title={t.temporal}>
            <IconButton size="small" component="a" href={c.temporalUrl} target="_blank" rel="noopener noreferrer" aria-label={t.temporal}>
              <OpenInNew fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
        <MenuButton label={t.tags} icon={<LocalOfferOutlined fontSize="small" />} text={c.tags.length > 0 ? String(c.tags.length) : t.noTags} testId="tags-menu">
          {() => tagMenu.items()}
        </MenuButton>
        {c.tags.length > 0 ? <TagChips tags={c.tags} /> : null}
      </Box>
    </Box>
  );
}
