import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import Close from '@mui/icons-material/Close';
import { shellTexts as texts } from '../../i18n/shellTexts';
import { listRows } from '../cache';
import { INBOX } from '../constants';
import { useConversationList } from '../queries';
import { ConversationListItem, optionId } from './ConversationListItem';
import { isTypingTarget } from '../keyboard';
import { useDebounced } from '../../common/useDebounced';
import { searchPath } from '../../search/searchApi';

const t = texts.inbox;
export const LISTBOX_ID = 'inbox-conversations';

interface Props {
  segment: string;
  title: string;
  openId: number | undefined;
  onOpen: (id: number) => void;
  /** Pixels; undefined on a phone, where the list takes the whole width. */
  width: number | undefined;
}

/**
 * SPEC §2 conversation list: search (500 ms debounce), 20 then 50 per 'Carregar mais conversas', and a
 * listbox driven by ↑/↓ or j/k with Enter to open (aria-activedescendant, so focus stays on the list).
 */
export function ConversationList({ segment, title, openId, onOpen, width }: Props) {
  const [search, setSearch] = useState('');
  const navigate = useNavigate();
  const query = useDebounced(search.trim(), INBOX.searchDebounceMs);
  const { data, isPending, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useConversationList(segment, query);
  const rows = useMemo(() => listRows(data), [data]);
  const [activeId, setActiveId] = useState<number | undefined>(openId);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (openId) setActiveId(openId);
  }, [openId]);

  const move = useCallback(
    (step: number) => {
      if (rows.length === 0) return;
      const at = rows.findIndex((c) => c.id === activeId);
      const next = rows[at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step))]!;
      setActiveId(next.id);
      listRef.current?.focus({ preventScroll: true });
      document.getElementById(optionId(next.id))?.scrollIntoView({ block: 'nearest' });
    },
    [rows, activeId],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
      const onList = e.target === listRef.current || e.target === document.body;
      if (e.key === 'ArrowDown' || e.key === 'j') move(1);
      else if (e.key === 'ArrowUp' || e.key === 'k') move(-1);
      else if (e.key === 'Home' && onList) move(-rows.length);
      else if (e.key === 'End' && onList) move(rows.length);
      else if (e.key === 'Enter' && onList && activeId) onOpen(activeId);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [move, rows.length, activeId, onOpen]);

  const open = useCallback(
    (id: number) => {
      setActiveId(id);
      onOpen(id);
    },
    [onOpen],
  );

  const activeInRows = rows.some((c) => c.id === activeId);

  return (
    <Box component="section" aria-label={t.listLabel} sx={{ width: width ?? 'auto', flex: width === undefined ? 1 : undefined, flexShrink: 0, borderRight: 1, borderColor: 'divider', bgcolor: 'background.paper', display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <Box sx={{ px: 2, pt: 1.5, pb: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" component="h2" fontWeight={700} noWrap sx={{ mb: 1 }}>
          {title}
        </Typography>
        {/* An outlined input, not a TextField: without a label the TextField adds only a wrapper, and its
            Select and other variants would ride along on the inbox's first paint (bench/uiWeight.ts). */}
        <OutlinedInput
          size="small"
          fullWidth
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && search) {
              e.preventDefault();
              setSearch('');
            }
            // Enter: the same search over every segment and message text (docs/search.md).
            if (e.key === 'Enter' && search.trim()) {
              e.preventDefault();
              void navigate(searchPath(search));
            }
          }}
          placeholder={t.searchPlaceholder}
          title={t.searchHelp}
          // Our clear button only: Chromium's own one of type=search would be a second ✕. At 14 px the
          // placeholder fits the narrowest list (280 px).
          sx={{ '& input': { fontSize: 14 }, '& input::-webkit-search-cancel-button': { WebkitAppearance: 'none', display: 'none' } }}
          inputProps={{ 'aria-label': t.search }}
          startAdornment={
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          }
          endAdornment={
            search ? (
              <InputAdornment position="end">
                <IconButton size="small" aria-label={t.clearSearch} onClick={() => setSearch('')}>
                  <Close fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : null
          }
        />
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', minHeight: 0 }}>
        {isPending ? (
          <Box role="status" aria-label={texts.common.loading} sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={24} />
          </Box>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="inbox-empty">
            {isError ? t.loadError : t.empty}
          </Typography>
        ) : (
          <Box
            ref={listRef}
            id={LISTBOX_ID}
            role="listbox"
            aria-label={title}
            tabIndex={0}
            aria-activedescendant={activeId && activeInRows ? optionId(activeId) : undefined}
            onFocus={() => {
              if (!activeInRows && rows[0]) setActiveId(rows[0].id);
            }}
            sx={{ outline: 'none', '&:focus-visible [data-active]': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } }}
          >
            {rows.map((c) => (
              <ConversationListItem key={c.id} conversation={c} selected={c.id === openId} active={c.id === activeId} onOpen={open} />
            ))}
          </Box>
        )}
        {hasNextPage ? (
          <Box sx={{ p: 1.5, display: 'flex', justifyContent: 'center' }}>
            <Button size="small" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage} startIcon={isFetchingNextPage ? <CircularProgress size={14} /> : undefined}>
              {t.loadMore}
            </Button>
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}
