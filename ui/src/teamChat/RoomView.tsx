import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { NameAvatar } from '../common/NameAvatar';
import { TipIconButton } from '../common/TipIconButton';
import { isHttpError } from '../providers/httpClient';
import { failureToasts } from '../forms/serverErrors';
import { format } from '../i18n/format';
import { useSession } from '../providers/session';
import { MessageItem } from './MessageItem';
import { Composer } from './Composer';
import { patchRoom, setOpenTeamRoom, teamApi, teamKeys, upsertMessage, type MessagePage, type TeamMessage, type TeamRoomDetail } from './teamApi';
import { teamTexts as t } from './texts';

/** Re-renders every 30 s, so the edit and delete buttons go away when a message's 15 minutes are over. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function subtitle(room: TeamRoomDetail): string {
  if (room.kind === 'direct') return t.kinds.direct;
  const count = room.members.length === 1 ? t.oneMember : format(t.members, { count: room.members.length });
  return `${t.kinds[room.kind]} · ${count}`;
}

/**
 * One room: its header, its messages (newest page first, older pages on demand) and the composer. Its
 * messages are read while it is open and the window has the focus; realtime keeps the pages current
 * (useTeamRealtime), and a search hit's message is loaded and highlighted (`focusMessage`).
 */
export function RoomView({ roomId, onePane, focusMessage, onManage }: { roomId: number; onePane: boolean; focusMessage?: number; onManage: (room: TeamRoomDetail) => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const me = useSession()?.user.id ?? 0;
  const now = useNow();
  const room = useQuery({ queryKey: teamKeys.room(roomId), queryFn: ({ signal }) => teamApi.room(roomId, signal), retry: (n, err) => !(isHttpError(err) && err.status === 404) && n < 2 });
  const pages = useInfiniteQuery({
    queryKey: teamKeys.messages(roomId),
    queryFn: ({ pageParam, signal }) => teamApi.page(roomId, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: MessagePage) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
    enabled: room.isSuccess,
  });
  const messages = (pages.data?.pages ?? []).flatMap((p) => p.data).reverse();
  const newest = messages[messages.length - 1];
  const [deleting, setDeleting] = useState<TeamMessage | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const stickToEnd = useRef(true);

  useEffect(() => {
    setOpenTeamRoom(roomId);
    return () => setOpenTeamRoom(undefined);
  }, [roomId]);

  // Read while open and looked at: the newest message marks the room read (the badge and the list clear).
  const readUpTo = useRef(0);
  useEffect(() => {
    const read = () => {
      if (!newest || newest.id <= readUpTo.current || document.visibilityState !== 'visible') return;
      readUpTo.current = newest.id;
      patchRoom(qc, roomId, (r) => ({ ...r, unread: 0, lastReadMessageId: Math.max(r.lastReadMessageId, newest.id) }));
      void teamApi.read(roomId, newest.id).catch(() => {
        readUpTo.current = 0;
      });
    };
    read();
    document.addEventListener('visibilitychange', read);
    window.addEventListener('focus', read);
    return () => {
      document.removeEventListener('visibilitychange', read);
      window.removeEventListener('focus', read);
    };
  }, [newest, roomId, qc]);

  // A search hit: older pages are loaded until its message is there (at most 20), then it is shown highlighted once.
  const [highlight, setHighlight] = useState<number | undefined>();
  const shown = useRef<number | undefined>(undefined);
  const found = focusMessage !== undefined && messages.some((m) => m.id === focusMessage);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const loadedPages = pages.data?.pages.length ?? 0;
  useEffect(() => {
    if (!focusMessage || shown.current === focusMessage || !loadedPages) return;
    if (!found) {
      if (hasNextPage && !isFetchingNextPage && loadedPages < 20) void fetchNextPage();
      return;
    }
    shown.current = focusMessage;
    stickToEnd.current = false;
    setHighlight(focusMessage);
    requestAnimationFrame(() => listRef.current?.querySelector(`[data-message-id="${focusMessage}"]`)?.scrollIntoView({ block: 'center' }));
    setTimeout(() => setHighlight(undefined), 2500);
  }, [focusMessage, found, loadedPages, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // New messages keep the view at its end unless the reader scrolled up.
  useLayoutEffect(() => {
    const el = listRef.current?.parentElement;
    if (el && stickToEnd.current) el.scrollTop = el.scrollHeight;
  }, [newest?.id, messages.length]);

  const send = async (body: string, file: { key: string } | null) => {
    try {
      const sent = await teamApi.send(roomId, { body, file: file ? { key: file.key } : null });
      stickToEnd.current = true;
      upsertMessage(qc, sent);
      return true;
    } catch (err) {
      for (const m of failureToasts(err)) notify(m, { type: 'error' });
      return false;
    }
  };
  const save = (message: TeamMessage) => async (body: string) => {
    try {
      upsertMessage(qc, await teamApi.edit(roomId, message.id, { body }));
      return true;
    } catch (err) {
      for (const m of failureToasts(err)) notify(m, { type: 'error' });
      return false;
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      upsertMessage(qc, await teamApi.remove(roomId, deleting.id));
      notify(t.removed, { type: 'success' });
    } catch (err) {
      for (const m of failureToasts(err)) notify(m, { type: 'error' });
    }
    setDeleting(null);
  };

  if (room.isError) {
    return (
      <Box sx={{ p: 2 }}>
        {onePane ? <BackLink /> : null}
        <Alert severity="info">{isHttpError(room.error) && room.error.status === 404 ? t.removedFromRoom : room.error.message}</Alert>
      </Box>
    );
  }
  if (!room.data) return <CircularProgress sx={{ m: 3 }} aria-label={t.title} />;
  const r = room.data;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        {onePane ? <BackLink /> : null}
        <NameAvatar name={r.name} avatar={r.other?.avatar} size={36} sx={r.icon ? { bgcolor: r.icon } : undefined} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography component="h2" variant="subtitle1" fontWeight={700} noWrap>
            {r.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p" title={r.members.map((m) => m.name).join(', ')}>
            {subtitle(r)}
          </Typography>
        </Box>
        {r.canManage ? (
          <TipIconButton title={t.manage} onClick={() => onManage(r)}>
            <SettingsOutlined />
          </TipIconButton>
        ) : null}
      </Box>
      <Box
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', bgcolor: 'background.default' }}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
      >
        {pages.hasNextPage ? (
          <Box sx={{ textAlign: 'center', py: 1 }}>
            <Button size="small" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
              {t.loadOlder}
            </Button>
          </Box>
        ) : null}
        {pages.isPending ? <CircularProgress sx={{ m: 3 }} aria-label={t.title} /> : null}
        {pages.isSuccess && messages.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
            {t.empty}
          </Typography>
        ) : null}
        <Box component="ul" ref={listRef} aria-label={r.name} sx={{ m: 0, p: 0, py: 1 }}>
          {messages.map((m) => (
            <MessageItem key={m.id} message={m} me={me} now={now} highlighted={highlight === m.id} onSave={save(m)} onDelete={() => setDeleting(m)} />
          ))}
        </Box>
      </Box>
      <Composer onSend={send} />
      <Confirm isOpen={deleting !== null} title={t.removeTitle} content={t.removeContent} confirm={t.removeConfirm} cancel={t.cancel} onConfirm={() => void remove()} onClose={() => setDeleting(null)} />
    </Box>
  );
}

function BackLink() {
  return (
    <IconButton component={RouterLink} to="/equipe" edge="start" aria-label={t.back} title={t.back}>
      <ArrowBack />
    </IconButton>
  );
}
