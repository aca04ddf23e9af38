import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import { texts } from '../../i18n/ptBR';
import { heldMessages, isAnchored, messageRows, releaseHeld, type MessageData } from '../cache';
import { inboxKeys } from '../queryKeys';
import { canDeleteOn, canReplyOn, MessageType } from '../constants';
import { dayKey, dayLabel } from '../formatTime';
import { openMessagesAt, openNewestMessages, useMessages } from '../queries';
import { MessageBubble } from './MessageBubble';
import type { Conversation, Message } from '../types';

const t = texts.inbox;
const NEAR_BOTTOM_PX = 120;

interface Props {
  conversation: Conversation;
  onReply: (m: Message) => void;
  onDelete: (m: Message) => void;
}

/**
 * The messages of a conversation, 30 per page, oldest at the top; scrolling back loads the previous page
 * (`before`) and keeps the reading position. New messages scroll into view when the reader is at the bottom.
 * Opened on a message (?message=, a search hit; docs/search.md) that the first page lacks, it shows the page
 * around that message instead: scrolling down then loads newer pages (`after`) until the newest, and a button
 * goes back to the newest at once. Until the newest page is loaded new messages are held, not shown out of place.
 */
export function MessageList({ conversation, onReply, onDelete }: Props) {
  const qc = useQueryClient();
  const { data, isPending, isError, hasNextPage, fetchNextPage, isFetchingNextPage, hasPreviousPage, fetchPreviousPage, isFetchingPreviousPage } = useMessages(conversation.id);
  const rows = useMemo(() => messageRows(data).slice().reverse(), [data]);
  const anchored = isAnchored(data);
  const held = useMemo(() => heldMessages(data), [data]);
  const heldPending = held.some((m) => m.pending);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const newerSentinel = useRef<HTMLDivElement>(null);
  const fromBottom = useRef<number | null>(null);
  /** A newer page is on its way: it lands below the reader, who stays where they are. */
  const loadingNewer = useRef(false);
  /** The next window (the newest page after an anchored one) opens at its end. */
  const toEnd = useRef(false);
  const edges = useRef<{ first?: number; last?: number; conversation?: number }>({});

  // ?message=<id> (a search hit, docs/search.md): a message already loaded is scrolled to the middle and
  // highlighted for a moment; another one is looked up with `around` and the view opens on it.
  const [params, setParams] = useSearchParams();
  const focusId = Number(params.get('message')) || undefined;
  const focused = useRef<string | undefined>(undefined);
  const anchoring = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!focusId) {
      focused.current = undefined;
      anchoring.current = undefined;
      return;
    }
    const key = `${conversation.id}:${focusId}`;
    if (focused.current === key || isPending || isError) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${focusId}"]`);
    if (el) {
      focused.current = key;
      el.scrollIntoView({ block: 'center' });
      el.setAttribute('data-search-focus', 'true');
      el.animate?.([{ backgroundColor: 'rgba(253, 176, 34, 0.45)' }, { backgroundColor: 'rgba(253, 176, 34, 0)' }], { duration: 2500, easing: 'ease-out' });
      setTimeout(() => el.removeAttribute('data-search-focus'), 2500);
      return;
    }
    if (anchoring.current === key) return;
    anchoring.current = key;
    fromBottom.current = null;
    // Not a message of this conversation (or the call failed): the conversation stays at its end.
    const giveUp = () => {
      focused.current = key;
    };
    openMessagesAt(qc, conversation.id, focusId).then((found) => found || giveUp(), giveUp);
  }, [focusId, conversation.id, rows, isPending, isError, qc]);

  // Back to the newest messages: the button, our own send while anchored (it belongs at the end), and an
  // anchored window still in the cache when the conversation is opened without ?message.
  const goingLive = useRef(false);
  const goLive = useCallback(() => {
    if (goingLive.current) return;
    goingLive.current = true;
    toEnd.current = true;
    fromBottom.current = null;
    openNewestMessages(qc, conversation.id)
      .catch(() => {
        toEnd.current = false;
      })
      .finally(() => {
        goingLive.current = false;
      });
  }, [qc, conversation.id]);
  useEffect(() => {
    if (anchored && (!focusId || heldPending)) goLive();
  }, [anchored, focusId, heldPending, goLive]);
  const jumpToNewest = () => {
    if (focusId) {
      setParams(
        (p) => {
          p.delete('message');
          return p;
        },
        { replace: true },
      );
    }
    goLive();
  };

  // Scroll-back: the top sentinel coming into view loads older messages.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage && !isFetchingPreviousPage && scroller.current) {
          fromBottom.current = scroller.current.scrollHeight - scroller.current.scrollTop;
          void fetchNextPage();
        }
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchingPreviousPage, fetchNextPage, rows.length]);

  // Anchored, scrolling down: the bottom sentinel coming into view loads newer messages.
  useEffect(() => {
    const el = newerSentinel.current;
    if (!el || !hasPreviousPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage && !isFetchingPreviousPage) {
          loadingNewer.current = true;
          void fetchPreviousPage();
        }
      },
      { root: scroller.current, rootMargin: '0px 0px 200px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasPreviousPage, isFetchingNextPage, isFetchingPreviousPage, fetchPreviousPage, rows.length]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || rows.length === 0) return;
    const first = rows[0]!.id;
    const last = rows[rows.length - 1]!;
    const prev = edges.current;
    edges.current = { first, last: last.id, conversation: conversation.id };
    const newerPage = loadingNewer.current;
    if (!isFetchingPreviousPage) loadingNewer.current = false;
    if (prev.conversation !== conversation.id || prev.last === undefined || (toEnd.current && (prev.first !== first || prev.last !== last.id))) {
      toEnd.current = false;
      el.scrollTop = el.scrollHeight;
      return;
    }
    if (prev.first !== first && fromBottom.current !== null) {
      // Older page prepended: keep what the reader was looking at in place.
      el.scrollTop = el.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    }
    if (prev.last !== last.id && !newerPage) {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      const ours = last.sender !== 'customer' && (last.pending || last.type === MessageType.PRIVATE || last.operatorId !== null);
      if (ours || distance < NEAR_BOTTOM_PX + 200) el.scrollTop = el.scrollHeight;
    }
  }, [rows, conversation.id, isFetchingPreviousPage]);

  // The newest page loaded by scrolling down: what was held takes its place.
  useEffect(() => {
    if (!anchored && held.length > 0) qc.setQueryData<MessageData>(inboxKeys.messages(conversation.id), (d) => (d ? releaseHeld(d) : d));
  }, [anchored, held.length, qc, conversation.id]);
  const arrived = held.filter((m) => !m.pending).length;

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
      {isFetchingPreviousPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
          <CircularProgress size={18} aria-label={texts.common.loading} />
        </Box>
      ) : null}
      <Box ref={newerSentinel} sx={{ height: '1px' }} />
      </Box>
      {anchored ? (
        // Stays at the bottom edge of the visible part while the reader is far from the newest messages.
        <Box sx={{ position: 'sticky', bottom: 12, height: 0, display: 'flex', alignItems: 'flex-start', justifyContent: 'center', overflow: 'visible', zIndex: 1 }}>
          <Button
            variant="contained"
            size="small"
            startIcon={<ArrowDownward />}
            onClick={jumpToNewest}
            aria-label={arrived > 0 ? `${t.jumpToNewest} · ${t.newerArrived(arrived)}` : t.jumpToNewest}
            title={arrived > 0 ? t.newerArrived(arrived) : undefined}
            data-jump-newest
            sx={{ transform: 'translateY(-100%)', borderRadius: 4, textTransform: 'none', whiteSpace: 'nowrap', boxShadow: 3, flexShrink: 0 }}
          >
            {t.jumpToNewest}
            {arrived > 0 ? (
              <Box component="span" aria-hidden sx={{ ml: 1, px: 0.75, minWidth: 20, borderRadius: 2, bgcolor: 'rgba(255, 255, 255, 0.3)', fontSize: 12, lineHeight: '20px', textAlign: 'center' }}>
                {arrived}
              </Box>
            ) : null}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
