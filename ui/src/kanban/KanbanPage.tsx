import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import InputAdornment from '@mui/material/InputAdornment';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import Search from '@mui/icons-material/Search';
import ViewList from '@mui/icons-material/ViewList';
import Refresh from '@mui/icons-material/Refresh';
import Tune from '@mui/icons-material/Tune';
import { KANBAN_GROUPINGS, NONE_COLUMN, type KanbanGrouping } from '../../../api/kanban/schema';
import { TipIconButton } from '../common/TipIconButton';
import { useDebounced } from '../common/useDebounced';
import { format } from '../i18n/format';
import { applyConversation } from '../inbox/applyChanges';
import { INBOX } from '../inbox/constants';
import { useAgents, useConversation } from '../inbox/queries';
import { useSubscribedSegments } from '../inbox/segments/useSegments';
import { useNotifyError } from '../inbox/useConversationActions';
import { useSession } from '../providers/session';
import type { Conversation } from '../inbox/types';
import { columnsHolding, findCard, guessAfterMove, optimisticMove } from './board';
import { moveCard, type Board, type BoardColumn, type BoardParams, type Funnel } from './kanbanApi';
import { KanbanColumn } from './KanbanColumn';
import { cardId } from './KanbanCard';
import { applyToBoards, kanbanKeys, useBoard, useFunnels, useKanbanRealtime, useLoadMore } from './queries';
import { kanbanTexts } from './texts';

const t = kanbanTexts;

const ConversationView = lazy(() => import('../inbox/conversation/ConversationView').then((m) => ({ default: m.ConversationView })));
const RightPanel = lazy(() => import('../inbox/panel/RightPanel').then((m) => ({ default: m.RightPanel })));
const FunnelsDialog = lazy(() => import('./FunnelsDialog').then((m) => ({ default: m.FunnelsDialog })));

const BUILTIN = ['all', 'starred', 'me', 'archived'] as const;
const COLUMN_WIDTH = 292;
const CHAT_WIDTH = 460;
const isId = (s: string | null) => (s && /^[1-9][0-9]{0,9}$/.test(s) ? Number(s) : null);

/** The board's state lives in the URL (?groupBy, funnel, segment, q, open): a reload or a shared link shows the same board. */
function useBoardState() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('groupBy');
  const groupBy: KanbanGrouping = (KANBAN_GROUPINGS as readonly string[]).includes(raw ?? '') ? (raw as KanbanGrouping) : 'status';
  const segment = params.get('segment') || 'all';
  const state = { groupBy, funnelId: isId(params.get('funnel')), segment, q: params.get('q') ?? '', open: isId(params.get('open')) };
  const set = useCallback(
    (patch: Partial<typeof state>, replace = true) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            const name = k === 'funnelId' ? 'funnel' : k;
            if (v === null || v === undefined || v === '' || (k === 'groupBy' && v === 'status') || (k === 'segment' && v === 'all')) next.delete(name);
            else next.set(name, String(v));
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return { ...state, set };
}

function columnTitle(grouping: KanbanGrouping, col: Pick<BoardColumn, 'key' | 'name'>): string {
  if (grouping === 'status') return t.columns[col.key as 'waiting' | 'active' | 'resolved'] ?? col.key;
  if (col.key === NONE_COLUMN) return grouping === 'tag' ? t.columns.noTag : grouping === 'group' ? t.columns.noGroup : t.columns.noStage;
  return col.name ?? col.key;
}

/** Re-renders every 30 s, so waiting times move on. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * /inbox/kanban — the conversations the viewer may see as a board (docs/kanban.md): columns by status, tag,
 * group or a funnel's stages, the inbox's filters, a card dragged (or moved with the keyboard) to another
 * column is the inbox's own change, live over MQTT, and the chat opens beside the board.
 */
export default function KanbanPage() {
  const qc = useQueryClient();
  const notifyError = useNotifyError();
  const session = useSession();
  const me = session?.user.id ?? 0;
  const canManage = (session?.workspace.accessLevel ?? 0) >= 6;
  const phone = useMediaQuery(`(max-width:${INBOX.onePaneAt}px)`);
  const state = useBoardState();
  const [search, setSearch] = useState(state.q);
  const query = useDebounced(search.trim(), INBOX.searchDebounceMs);
  const { data: funnels, isFetched: funnelsLoaded } = useFunnels();
  const { data: saved = [] } = useSubscribedSegments();
  const { data: agents = [] } = useAgents();
  const agentNames = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), [agents]);
  const now = useNow();
  const [funnelsOpen, setFunnelsOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [drag, setDrag] = useState<{ conversation: Conversation; from: string } | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; conversation: Conversation; from: string } | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  useKanbanRealtime();

  // A funnel board without a funnel chosen, or with one deleted since, shows the first one.
  const chosen = funnels ? (funnels.find((f) => f.id === state.funnelId)?.id ?? funnels[0]?.id ?? null) : state.funnelId;
  const funnelId = state.groupBy === 'stage' ? chosen : null;
  const params: BoardParams = useMemo(() => ({ groupBy: state.groupBy, funnelId, segment: state.segment, query }), [state.groupBy, funnelId, state.segment, query]);
  const needsFunnel = state.groupBy === 'stage' && funnelId === null;
  const { data: board, isPending, isError, refetch } = useBoard(params, !needsFunnel);
  const loadMore = useLoadMore(params);

  useEffect(() => {
    if (query !== state.q) state.set({ q: query });
    // The URL follows the debounced search only.
  }, [query]);

  const titleOf = useCallback((key: string) => {
    const col = board?.columns.find((c) => c.key === key);
    return col ? columnTitle(board!.groupBy, col) : key;
  }, [board]);

  const focusCard = (column: string, id: number) => setTimeout(() => document.getElementById(cardId(column, id))?.focus(), 0);

  const move = useCallback(
    async (conversation: Conversation, from: string, to: string, refocus = false) => {
      if (from === to) return;
      const key = kanbanKeys.board(params);
      const before = qc.getQueryData<Board>(key);
      if (before) qc.setQueryData<Board>(key, optimisticMove(before, guessAfterMove(params.groupBy, conversation, to, me), from, to));
      if (refocus) focusCard(to, conversation.id);
      try {
        const next = await moveCard(params, conversation.id, from, to);
        applyConversation(qc, next, me);
        applyToBoards(qc, next, me);
        setAnnounce(format(t.moved, { column: titleOf(to) }));
        if (refocus) {
          const holding = columnsHolding(qc.getQueryData<Board>(key) ?? { groupBy: params.groupBy, funnelId, columns: [] }, conversation.id);
          if (holding.length) focusCard(holding.includes(to) ? to : holding[0]!, conversation.id);
        }
      } catch (error) {
        if (before) qc.setQueryData<Board>(key, before);
        void qc.invalidateQueries({ queryKey: key, exact: true });
        notifyError(error);
      }
    },
    [params, qc, me, titleOf, notifyError, funnelId],
  );

  const openChat = useCallback((id: number) => state.set({ open: id }, false), [state]);
  const closeChat = () => {
    const id = state.open;
    state.set({ open: null }, false);
    setPanelOpen(false);
    if (id && board) {
      const column = columnsHolding(board, id)[0];
      if (column) focusCard(column, id);
    }
  };

  const onCardKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>, conversation: Conversation, column: string) => {
      if (e.target !== e.currentTarget || !board) return;
      const cols = board.columns;
      const ci = cols.findIndex((c) => c.key === column);
      const cards = cols[ci]?.data ?? [];
      const ri = cards.findIndex((c) => c.id === conversation.id);
      if (e.key === 'Enter') openChat(conversation.id);
      else if (e.key === 'm' || e.key === 'M' || e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) setMenu({ anchor: e.currentTarget, conversation, from: column });
      else if (e.altKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
        const to = cols[ci + (e.key === 'ArrowRight' ? 1 : -1)];
        if (to) void move(conversation, column, to.key, true);
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const next = cards[ri + (e.key === 'ArrowDown' ? 1 : -1)];
        if (next) focusCard(column, next.id);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        for (let i = ci + (e.key === 'ArrowRight' ? 1 : -1); i >= 0 && i < cols.length; i += e.key === 'ArrowRight' ? 1 : -1) {
          const target = cols[i]!.data[Math.min(ri, cols[i]!.data.length - 1)];
          if (target) {
            focusCard(cols[i]!.key, target.id);
            break;
          }
        }
      } else return;
      e.preventDefault();
    },
    [board, move, openChat],
  );

  const onMoveMenu = useCallback((anchor: HTMLElement, conversation: Conversation, from: string) => setMenu({ anchor, conversation, from }), []);
  const onDragStart = useCallback((conversation: Conversation, from: string) => setDrag({ conversation, from }), []);
  const onDragEnd = useCallback(() => setDrag(null), []);
  const onDrop = useCallback(
    (to: string) => {
      if (!drag) return;
      const { conversation, from } = drag;
      setDrag(null);
      void move(findCard(board, conversation.id) ?? conversation, from, to);
    },
    [drag, move, board],
  );

  const openId = state.open ?? undefined;
  const chatOnly = phone && openId !== undefined;
  // What the chat beside the board changes locally (read, an optimistic tag or transfer, the answers of its
  // calls) lands in the inbox's copy of the conversation; its card follows. Live events bring the rest.
  const { data: opened, isPlaceholderData } = useConversation(openId);
  useEffect(() => {
    if (opened && opened.id === openId && !isPlaceholderData) applyToBoards(qc, opened, me);
  }, [opened, openId, isPlaceholderData, qc, me]);
  const columnWidth = phone ? 'calc(100vw - 40px)' : COLUMN_WIDTH;

  const chat = openId ? (
    <Box component="section" aria-label={t.chatLabel} data-testid="kanban-chat" sx={{ width: phone ? '100%' : CHAT_WIDTH, flexShrink: 0, display: 'flex', minHeight: 0, minWidth: 0, borderLeft: phone ? 0 : 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Suspense fallback={<CircularProgress size={28} sx={{ m: 'auto' }} aria-label={t.loading} />}>
        <ConversationView key={openId} id={openId} segment="all" panelOpen={panelOpen} onTogglePanel={() => setPanelOpen(!panelOpen)} onClose={closeChat} />
      </Suspense>
    </Box>
  ) : null;

  const toolbar = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Typography component="h1" variant="subtitle1" fontWeight={700} sx={{ mr: 1 }}>
        {t.title}
      </Typography>
      <Button component={Link} to={`/inbox/${state.segment}`} size="small" startIcon={<ViewList />} title={t.listHelp}>
        {t.list}
      </Button>
      <TextField select size="small" label={t.groupBy} value={state.groupBy} onChange={(e) => state.set({ groupBy: e.target.value as KanbanGrouping, funnelId: null })} SelectProps={{ native: true }} sx={{ minWidth: 130 }}>
        {KANBAN_GROUPINGS.map((g) => (
          <option key={g} value={g}>
            {t.groupings[g]}
          </option>
        ))}
      </TextField>
      {state.groupBy === 'stage' && funnels && funnels.length > 0 ? (
        <TextField select size="small" label={t.funnel} value={funnelId ?? ''} onChange={(e) => state.set({ funnelId: Number(e.target.value) })} SelectProps={{ native: true }} sx={{ minWidth: 150 }}>
          {funnels.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </TextField>
      ) : null}
      <TextField select size="small" label={t.filter} value={state.segment} onChange={(e) => state.set({ segment: e.target.value })} SelectProps={{ native: true }} sx={{ minWidth: 150 }}>
        {BUILTIN.map((s) => (
          <option key={s} value={s}>
            {t.segments[s]}
          </option>
        ))}
        {saved.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.name}
          </option>
        ))}
      </TextField>
      <OutlinedInput
        size="small"
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && search) {
            e.preventDefault();
            setSearch('');
          }
        }}
        placeholder={t.searchPlaceholder}
        inputProps={{ 'aria-label': t.search }}
        startAdornment={
          <InputAdornment position="start">
            <Search fontSize="small" />
          </InputAdornment>
        }
        sx={{ flex: '1 1 200px', maxWidth: 360, '& input': { fontSize: 14 } }}
      />
      <Box sx={{ ml: 'auto', display: 'flex', gap: 0.5 }}>
        <TipIconButton title={t.refresh} size="small" onClick={() => void qc.invalidateQueries({ queryKey: kanbanKeys.all })}>
          <Refresh fontSize="small" />
        </TipIconButton>
        {canManage ? (
          <Button size="small" startIcon={<Tune />} onClick={() => setFunnelsOpen(true)} title={t.manageFunnelsHelp}>
            {t.manageFunnels}
          </Button>
        ) : null}
      </Box>
    </Box>
  );

  let body;
  if (needsFunnel) {
    body = funnelsLoaded ? (
      <Box sx={{ m: 'auto', p: 3, maxWidth: 420, textAlign: 'center' }}>
        <Typography sx={{ mb: 2 }}>{canManage ? t.noFunnelYet : t.noFunnelYetAgent}</Typography>
        {canManage ? (
          <Button variant="contained" onClick={() => setFunnelsOpen(true)}>
            {t.createFunnel}
          </Button>
        ) : null}
      </Box>
    ) : (
      <CircularProgress size={28} sx={{ m: 'auto' }} aria-label={t.loading} />
    );
  } else if (isPending) {
    body = <CircularProgress size={28} sx={{ m: 'auto' }} aria-label={t.loading} />;
  } else if (isError || !board) {
    body = (
      <Box sx={{ m: 'auto', textAlign: 'center' }}>
        <Typography sx={{ mb: 1 }}>{t.loadError}</Typography>
        <Button onClick={() => void refetch()}>{t.retry}</Button>
      </Box>
    );
  } else {
    body = (
      <Box
        ref={boardRef}
        role="region"
        aria-label={t.boardLabel}
        data-testid="kanban-board"
        data-group-by={board.groupBy}
        sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', gap: 1.5, p: 1.5, overflowX: 'auto', overflowY: 'hidden', alignItems: 'stretch', scrollSnapType: phone ? 'x mandatory' : undefined }}
      >
        {board.columns.map((col) => (
          <KanbanColumn
            key={col.key}
            column={col}
            title={columnTitle(board.groupBy, col)}
            dragFrom={drag?.from ?? null}
            openId={openId}
            now={now}
            agentNames={agentNames}
            width={columnWidth}
            onDrop={onDrop}
            onLoadMore={loadMore}
            onOpen={openChat}
            onMoveMenu={onMoveMenu}
            onCardKeyDown={onCardKeyDown}
            onDragStart={onDragStart}
            onDragEnd={onDragEnd}
          />
        ))}
      </Box>
    );
  }

  return (
    <Box data-testid="kanban" sx={{ position: 'relative', display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, minWidth: 0, overflow: 'hidden' }}>
      {chatOnly ? null : toolbar}
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0, minWidth: 0 }}>
        {chatOnly ? null : body}
        {chat}
      </Box>
      <Typography id="kanban-keyboard-help" sx={visuallyHidden}>
        {t.card.keyboardHelp}
      </Typography>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announce}
      </Box>
      <Menu
        anchorEl={menu?.anchor ?? null}
        open={Boolean(menu)}
        onClose={() => {
          const m = menu;
          setMenu(null);
          if (m) focusCard(m.from, m.conversation.id);
        }}
        MenuListProps={{ 'aria-label': t.card.moveTo, subheader: <ListSubheader component="div">{t.card.moveTo}</ListSubheader> }}
      >
        {board && menu
          ? board.columns
              .filter((col) => col.key !== menu.from)
              .map((col) => (
                <MenuItem
                  key={col.key}
                  onClick={() => {
                    const m = menu;
                    setMenu(null);
                    void move(findCard(board, m.conversation.id) ?? m.conversation, m.from, col.key, true);
                  }}
                >
                  <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: col.color ?? 'text.disabled', mr: 1.5 }} />
                  {columnTitle(board.groupBy, col)}
                </MenuItem>
              ))
          : null}
      </Menu>
      {openId && panelOpen ? (
        <Drawer anchor="right" open onClose={() => setPanelOpen(false)}>
          <Suspense fallback={null}>
            <RightPanelFor id={openId} board={board} />
          </Suspense>
        </Drawer>
      ) : null}
      {funnelsOpen ? (
        <Suspense fallback={null}>
          <FunnelsDialog
            open
            initial={funnelId}
            onClose={(savedFunnel?: Funnel) => {
              setFunnelsOpen(false);
              if (savedFunnel && state.groupBy === 'stage') state.set({ funnelId: savedFunnel.id });
            }}
          />
        </Suspense>
      ) : null}
    </Box>
  );
}

/** The contact panel of the open chat, over the board (there is no room for a third pane beside it). */
function RightPanelFor({ id, board }: { id: number; board: Board | undefined }) {
  const { data } = useConversation(id);
  const conversation = data ?? findCard(board, id);
  if (!conversation) return null;
  return <RightPanel conversation={conversation} width={320} />;
}

const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
