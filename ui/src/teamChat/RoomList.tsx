import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import Search from '@mui/icons-material/Search';
import VolumeOffOutlined from '@mui/icons-material/VolumeOffOutlined';
import VolumeUpOutlined from '@mui/icons-material/VolumeUpOutlined';
import { NameAvatar } from '../common/NameAvatar';
import { TipIconButton } from '../common/TipIconButton';
import { useDebounced } from '../common/useDebounced';
import { listTime } from '../inbox/formatTime';
import { usePreference } from '../inbox/usePreference';
import { useSession } from '../providers/session';
import { TEAM_SOUND_PREFERENCE } from './labels';
import { teamApi, teamKeys, useTeamRooms, type TeamRoom } from './teamApi';
import { teamTexts as t } from './texts';

function RoomRow({ room, selected, me }: { room: TeamRoom; selected: boolean; me: number }) {
  const last = room.lastMessage;
  const who = last?.authorId === me ? `${t.you}: ` : last?.authorName && room.kind !== 'direct' ? `${last.authorName.split(' ')[0]}: ` : '';
  const preview = last ? (last.isDeleted ? t.deleted : `${who}${last.preview}`) : t.kinds[room.kind];
  return (
    <ListItemButton component={RouterLink} to={`/equipe/${room.id}`} selected={selected} data-testid="team-room" data-room-id={room.id} data-unread={room.unread} sx={{ gap: 1.25, py: 1, minHeight: 56 }}>
      <Badge badgeContent={room.unread} color="error" max={99} overlap="circular" slotProps={{ badge: { 'aria-label': `${room.unread}` } as object }}>
        <NameAvatar name={room.name} avatar={room.other?.avatar} size={36} sx={room.icon ? { bgcolor: room.icon } : undefined} />
      </Badge>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
          <Typography variant="body2" fontWeight={room.unread ? 800 : 600} noWrap sx={{ flex: 1 }}>
            {room.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
            {listTime(last?.createdAt)}
          </Typography>
        </Box>
        <Typography variant="caption" color="text.secondary" noWrap component="p" sx={{ fontStyle: last?.isDeleted ? 'italic' : undefined }}>
          {preview}
        </Typography>
      </Box>
    </ListItemButton>
  );
}

/** Search hits over the caller's rooms: the snippet with its matched words marked, as text only. */
function SearchResults({ q }: { q: string }) {
  const [page, setPage] = useState(1);
  const res = useQuery({ queryKey: teamKeys.search(q, page), queryFn: ({ signal }) => teamApi.search(q, page, signal), enabled: q.length >= 2 });
  if (q.length < 2) return null;
  const hits = res.data?.data ?? [];
  return (
    <List dense aria-label={t.search}>
      {res.isSuccess && !hits.length ? (
        <Typography color="text.secondary" variant="body2" sx={{ p: 2 }}>
          {t.searchEmpty}
        </Typography>
      ) : null}
      {hits.map((h) => (
        <ListItemButton key={h.id} component={RouterLink} to={`/equipe/${h.roomId}?message=${h.id}`} data-testid="team-search-hit" sx={{ display: 'block', py: 1 }}>
          <Typography variant="caption" color="text.secondary" component="p" noWrap>
            {h.room.name} · {h.author?.name ?? '—'} · {listTime(h.createdAt)}
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {h.snippet.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
          </Typography>
        </ListItemButton>
      ))}
      {res.data?.hasMore ? (
        <Box sx={{ textAlign: 'center' }}>
          <Button size="small" onClick={() => setPage(page + 1)}>
            {t.searchMore}
          </Button>
        </Box>
      ) : null}
    </List>
  );
}

/**
 * The left pane of /equipe: the caller's rooms (groups' and created ones) and direct conversations, newest
 * activity first with their unread counts; the search over them; the sound switch; new conversations.
 */
export function RoomList({ selected, onNewDirect, onNewRoom }: { selected?: number; onNewDirect: () => void; onNewRoom?: () => void }) {
  const me = useSession()?.user.id ?? 0;
  const rooms = useTeamRooms();
  const [sound, setSound] = usePreference(TEAM_SOUND_PREFERENCE, true);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const all = rooms.data?.data ?? [];
  const shared = all.filter((r) => r.kind !== 'direct');
  const directs = all.filter((r) => r.kind === 'direct');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1.5, pt: 1 }}>
        <Typography component="h1" variant="h6" fontWeight={800} sx={{ flex: 1 }} noWrap>
          {t.title}
        </Typography>
        <TipIconButton title={sound ? t.soundOn : t.soundOff} aria-label={t.sound} aria-pressed={sound} onClick={() => setSound(!sound)} data-testid="team-sound">
          {sound ? <VolumeUpOutlined /> : <VolumeOffOutlined />}
        </TipIconButton>
        {onNewRoom ? (
          <>
            <TipIconButton title={t.newMenu} aria-haspopup="menu" onClick={(e) => setMenu(e.currentTarget)}>
              <Add />
            </TipIconButton>
            <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  onNewDirect();
                }}
              >
                {t.newDirect}
              </MenuItem>
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  onNewRoom();
                }}
              >
                {t.newRoom}
              </MenuItem>
            </Menu>
          </>
        ) : (
          <TipIconButton title={t.newDirect} onClick={onNewDirect}>
            <Add />
          </TipIconButton>
        )}
      </Box>
      <Box sx={{ px: 1.5, py: 1 }}>
        <TextField
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t.searchPlaceholder}
          size="small"
          fullWidth
          type="search"
          slotProps={{
            htmlInput: { 'aria-label': t.search, maxLength: 200 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: query ? (
                <InputAdornment position="end">
                  <IconButton size="small" aria-label={t.searchClear} onClick={() => setQuery('')}>
                    <Close fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {q.length >= 2 ? (
          <SearchResults key={q} q={q} />
        ) : (
          <>
            <List dense aria-label={t.rooms} subheader={<ListSubheader>{t.rooms}</ListSubheader>}>
              {rooms.isSuccess && !shared.length ? (
                <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
                  {t.noRooms}
                </Typography>
              ) : null}
              {shared.map((r) => (
                <RoomRow key={r.id} room={r} selected={r.id === selected} me={me} />
              ))}
            </List>
            <List dense aria-label={t.directs} subheader={<ListSubheader>{t.directs}</ListSubheader>}>
              {rooms.isSuccess && !directs.length ? (
                <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
                  {t.noDirects}
                </Typography>
              ) : null}
              {directs.map((r) => (
                <RoomRow key={r.id} room={r} selected={r.id === selected} me={me} />
              ))}
            </List>
          </>
        )}
      </Box>
    </Box>
  );
}
