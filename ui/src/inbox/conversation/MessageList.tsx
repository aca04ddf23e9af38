import { Fragment, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { messageRows } from '../cache';
import { canDeleteOn, canReplyOn, MessageType } from '../constants';
import { dayKey, dayLabel } from '../formatTime';
import { useMessages } from '../queries';
import { MessageBubble } from './MessageBubble';
import type { Conversation, Message } from '../types';

const t = texts.inbox;
const NEAR_BOTTOM_PX = 120;
/** A search hit (?message=) older than this many pages back is not looked for (docs/search.md). */
const FOCUS_MAX_PAGES = 40;

interface Props {
  conversation: Conversation;
  onReply: (m: Message) => void;
  onDelete: (m: Message) => void;
}

/**
 * The messages of a conversation, 30 per page, oldest at the top; scrolling back loads the previous page
 * (`before`) and keeps the reading position. New messages scroll into view when the reader is at the bottom.
 */
export function MessageList({ conversation, onReply, onDelete }: Props) {
  const { data, isPending, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useMessages(conversation.id);
  const rows = useMemo(() => messageRows(data).slice().reverse(), [data]);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const fromBottom = useRef<number | null>(null);
  const edges = useRef<{ first?: number; last?: number; conversation?: number }>({});

  // ?message=<id> (a search hit, docs/search.md): older pages load until the message is there, then it is
  // scrolled to the middle and highlighted for a moment.
  const [params] = useSearchParams();
  const focusId = Number(params.get('message')) || undefined;
  const focused = useRef<string | undefined>(undefined);
  const loadedPages = data?.pages.length ?? 0;
  useEffect(() => {
    const key = `${conversation.id}:${focusId}`;
    if (!focusId || focused.current === key || isPending || isError) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${focusId}"]`);
    if (el) {
      focused.current = key;
      el.scrollIntoView({ block: 'center' });
      el.setAttribute('data-search-focus', 'true');
      el.animate?.([{ backgroundColor: 'rgba(253, 176, 34, 0.45)' }, { backgroundColor: 'rgba(253, 176, 34, 0)' }], { duration: 2500, easing: 'ease-out' });
      setTimeout(() => el.removeAttribute('data-search-focus'), 2500);
      return;
    }
    if (hasNextPage && !isFetchingNextPage && loadedPages < FOCUS_MAX_PAGES) void fetchNextPage();
  }, [focusId, conversation.id, rows, isPending, isError, hasNextPage, isFetchingNextPage, loadedPages, fetchNextPage]);

  // Scroll-back: the top sentinel coming into view loads older messages.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage && scroller.current) {
          fromBottom.current = scroller.current.scrollHeight - scroller.current.scrollTop;
          void fetchNextPage();
        }
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || rows.length === 0) return;
    const first = rows[0]!.id;
    const last = rows[rows.length - 1]!;
    const prev = edges.current;
    edges.current = { first, last: last.id, conversation: conversation.id };
    if (prev.conversation !== conversation.id || prev.last === undefined) {
      el.scrollTop = el.scrollHeight;
      return;
    }
    if (prev.first !== first && fromBottom.current !== null) {
      // Older page prepended: keep what the reader was looking at in place.
      el.scrollTop = el.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    }
    if (prev.last !== last.id) {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      const ours = last.sender !== 'customer' && (last.pending || last.type === MessageType.PRIVATE || last.operatorId !== null);
      if (ours || distance < NEAR_BOTTOM_PX + 200) el.scrollTop = el.scrollHeight;
    }
  }, [rows, conversation.id]);

  const replyAllowed = canReplyOn(conversation.platformId);
  const deleteAllowed = canDeleteOn(conversation.platformId, conversation.channelProvider);

  return (
    <Box
      ref={scroller}
      role="log"
      aria-label={t.messagesLabel}
      tabIndex={0}
      data-own-keys
      // Our own anchoring keeps the reading position when older pages arrive; the browser's would add to it.
      sx={{ flex: 1, overflowY: 'auto', overflowAnchor: 'none', minHeight: 0, py: 1, bgcolor: '#f4f6f8', outline: 'none', display: 'flex', flexDirection: 'column' }}
    >
      {/* A short conversation sits at the bottom, next to the composer, like any chat. */}
      <Box sx={{ flex: '1 0 auto' }} />
      <Box sx={{ flexShrink: 0 }}>
      <Box ref={sentinel} sx={{ height: '1px' }} />
      {isFetchingNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
          <CircularProgress size={18} aria-label={texts.common.loading} />
        </Box>
      ) : null}
      {isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress size={24} aria-label={texts.common.loading} />
        </Box>
      ) : isError ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          {t.loadError}
        </Typography>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
          {t.noMessages}
        </Typography>
      ) : (
        rows.map((m, i) => {
          const newDay = i === 0 || dayKey(rows[i - 1]!.createdAt) !== dayKey(m.createdAt);
          const outgoing = m.sender !== 'customer';
          return (
            <Fragment key={m.id}>
              {newDay ? (
                <Box role="separator" aria-label={dayLabel(m.createdAt)} sx={{ display: 'flex', justifyContent: 'center', my: 1.5 }}>
                  <Typography component="span" sx={{ fontSize: 12, fontWeight: 600, color: 'text.secondary', bgcolor: 'background.paper', border: 1, borderColor: 'divider', px: 1.5, py: 0.25, borderRadius: 4 }}>
                    {dayLabel(m.createdAt)}
                  </Typography>
                </Box>
              ) : null}
              <MessageBubble
                message={m}
                canReply={replyAllowed && Boolean(m.externalId) && m.type !== MessageType.PRIVATE && m.type !== MessageType.SYSTEM}
                canDelete={outgoing && (m.type === MessageType.PRIVATE || (deleteAllowed && m.type === MessageType.COMMON && Boolean(m.externalId)))}
                onReply={onReply}
                onDelete={onDelete}
              />
            </Fragment>
          );
        })
      )}
      </Box>
    </Box>
  );
}
