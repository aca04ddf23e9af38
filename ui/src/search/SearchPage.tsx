import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import { texts } from '../i18n/ptBR';
import { NameAvatar } from '../common/NameAvatar';
import { ChannelIcon } from '../inbox/ChannelIcon';
import { listTime } from '../inbox/formatTime';
import { MessageType } from '../inbox/constants';
import type { Conversation } from '../inbox/types';
import { conversationPath, fetchSearch, searchPath, type MessageHit, type SearchPage as Page, type SnippetPart } from './searchApi';

const t = texts.search;

/** The matched words in <mark>; everything else as text (never HTML from the message). */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.match ? (
          <Box component="mark" key={i} sx={{ bgcolor: '#FEF0C7', color: 'inherit', borderRadius: 0.5, px: 0.25 }}>
            {p.text}
          </Box>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/** Marks the query's words in a contact's name/phone/e-mail (a substring match, case-insensitive). */
function markText(text: string, q: string): SnippetPart[] {
  const needle = q.trim().toLowerCase();
  const at = needle ? text.toLowerCase().indexOf(needle) : -1;
  if (at < 0) return [{ text, match: false }];
  return [
    { text: text.slice(0, at), match: false },
    { text: text.slice(at, at + needle.length), match: true },
    { text: text.slice(at + needle.length), match: false },
  ].filter((p) => p.text);
}

function ResultRow({ label, onOpen, children }: { label: string; onOpen: () => void; children: ReactNode }) {
  return (
    <Box
      component="li"
      role="link"
      tabIndex={-1}
      aria-label={label}
      data-search-result
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onOpen();
        }
      }}
      sx={{
        display: 'flex',
        gap: 1.5,
        px: 2,
        py: 1.25,
        cursor: 'pointer',
        borderBottom: 1,
        borderColor: 'divider',
        minWidth: 0,
        '&:hover, &:focus': { bgcolor: 'action.hover', outline: 'none' },
        '&:focus-visible': { boxShadow: (th) => `inset 3px 0 0 ${th.palette.primary.main}` },
      }}
    >
      {children}
    </Box>
  );
}

function ConversationMeta({ c }: { c: Conversation }) {
  return (
    <Typography component="div" sx={{ fontSize: 12, color: 'text.secondary', display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap', minWidth: 0 }}>
      <ChannelIcon platformId={c.platformId} size={14} aria-hidden />
      <span>{c.channelName}</span>
      <span aria-hidden>·</span>
      <span>{c.isFinished ? t.stateResolved : t.stateOpen}</span>
      {c.protocol ? (
        <>
          <span aria-hidden>·</span>
          <span>{t.protocol(c.protocol)}</span>
        </>
      ) : null}
    </Typography>
  );
}

/** A titled list of results (conversations or messages). */
function ResultSection({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} component="h2" sx={{ px: 2, pt: 2, pb: 0.5, fontSize: 13, fontWeight: 700, color: 'text.secondary', textTransform: 'uppercase' }}>
        {title}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {children}
      </Box>
    </Box>
  );
}

function ConversationResult({ c, q, onOpen }: { c: Conversation; q: string; onOpen: () => void }) {
  const contact = [c.phone, c.email].filter(Boolean).join(' · ');
  return (
    <ResultRow label={t.openConversation(c.name || t.noName)} onOpen={onOpen}>
      <NameAvatar name={c.name || '?'} avatar={c.avatar} size={36} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography sx={{ fontWeight: 600, fontSize: 14, overflowWrap: 'anywhere' }}>
          <Snippet parts={markText(c.name || t.noName, q)} />
        </Typography>
        {contact ? (
          <Typography sx={{ fontSize: 13, color: 'text.secondary', overflowWrap: 'anywhere' }}>
            <Snippet parts={markText(contact, q)} />
          </Typography>
        ) : null}
        <ConversationMeta c={c} />
      </Box>
    </ResultRow>
  );
}

function MessageResult({ hit, onOpen }: { hit: MessageHit; onOpen: () => void }) {
  const c = hit.conversation;
  return (
    <ResultRow label={t.openMessage(c.name || t.noName)} onOpen={onOpen}>
      <NameAvatar name={c.name || '?'} avatar={c.avatar} size={36} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, fontSize: 14, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{c.name || t.noName}</Typography>
          <Typography component="span" sx={{ fontSize: 12, color: 'text.secondary', flexShrink: 0 }}>
            {listTime(hit.createdAt)}
          </Typography>
        </Box>
        <Typography sx={{ fontSize: 14, overflowWrap: 'anywhere' }} data-snippet>
          {hit.type === MessageType.PRIVATE ? (
            <Box component="span" sx={{ fontWeight: 600, mr: 0.5 }}>
              {t.privateNote}:
            </Box>
          ) : hit.sender === 'customer' ? null : (
            <Box component="span" sx={{ color: 'text.secondary', mr: 0.5 }}>
              {t.you}:
            </Box>
          )}
          <Snippet parts={hit.snippet} />
        </Typography>
        <ConversationMeta c={c} />
      </Box>
    </ResultRow>
  );
}

/**
 * /search?q= — conversations (contact name, phone, e-mail, protocol) and messages (text) that match, across
 * every segment, open and resolved, that the agent may open. Enter in the field searches; ↑/↓ move through
 * the results and Enter opens one; a message opens its conversation scrolled to it (docs/search.md).
 */
export default function SearchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const q = (params.get('q') ?? '').trim();
  const [draft, setDraft] = useState(q);
  const field = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => setDraft(q), [q]);
  useEffect(() => {
    if (!q) field.current?.focus();
  }, [q]);

  const query = useInfiniteQuery<Page, Error, Page[], [string, string], number>({
    queryKey: ['search', q],
    queryFn: ({ pageParam, signal }) => fetchSearch(q, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.conversations.hasMore || last.messages.hasMore ? last.page + 1 : undefined),
    select: (data) => data.pages,
    enabled: q.length > 0,
    retry: false,
  });
  const pages = useMemo(() => query.data ?? [], [query.data]);
  const conversations = useMemo(() => {
    const seen = new Set<number>();
    return pages.flatMap((p) => p.conversations.data).filter((c) => !seen.has(c.id) && seen.add(c.id));
  }, [pages]);
  const messages = useMemo(() => {
    const seen = new Set<number>();
    return pages.flatMap((p) => p.messages.data).filter((h) => !seen.has(h.id) && seen.add(h.id));
  }, [pages]);

  const submit = () => {
    const next = draft.trim();
    if (next) void navigate(searchPath(next));
  };

  /** ↑/↓ from the field or a result move through the results; ↑ from the first goes back to the field. */
  const onKeys = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const rows = [...(list.current?.querySelectorAll<HTMLElement>('[data-search-result]') ?? [])];
    if (!rows.length) return;
    const at = rows.indexOf(document.activeElement as HTMLElement);
    e.preventDefault();
    if (e.key === 'ArrowDown') rows[Math.min(rows.length - 1, at + 1)]!.focus();
    else if (at <= 0) field.current?.focus();
    else rows[at - 1]!.focus();
  };

  const error = query.error as (Error & { descriptions?: string[] }) | null;
  let body: ReactNode;
  if (!q) body = <Typography sx={{ color: 'text.secondary', p: 2 }}>{t.prompt}</Typography>;
  else if (query.isPending)
    body = (
      <Box role="status" aria-label={texts.common.loading} sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress size={28} />
      </Box>
    );
  else if (query.isError)
    body = (
      <Alert
        severity="error"
        sx={{ m: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t.retry}
          </Button>
        }
      >
        {error?.descriptions?.length ? error.descriptions.join(' ') : t.error}
      </Alert>
    );
  else if (!conversations.length && !messages.length)
    body = (
      <Box role="status" sx={{ p: 3, textAlign: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>{t.empty(q)}</Typography>
        <Typography sx={{ color: 'text.secondary', fontSize: 14, mt: 0.5 }}>{t.emptyHelp}</Typography>
      </Box>
    );
  else
    body = (
      <>
        {conversations.length ? (
          <ResultSection id="search-conversations" title={t.conversations}>
              {conversations.map((c) => (
                <ConversationResult key={c.id} c={c} q={q} onOpen={() => void navigate(conversationPath(c))} />
              ))}
          </ResultSection>
        ) : null}
        {messages.length ? (
          <ResultSection id="search-messages" title={t.messages}>
              {messages.map((h) => (
                <MessageResult key={h.id} hit={h} onOpen={() => void navigate(conversationPath(h.conversation, h.id))} />
              ))}
          </ResultSection>
        ) : null}
        {query.hasNextPage ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
            <Button variant="outlined" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {query.isFetchingNextPage ? <CircularProgress size={18} aria-label={texts.common.loading} /> : t.more}
            </Button>
          </Box>
        ) : null}
      </>
    );

  return (
    <Box sx={{ height: '100%', overflowY: 'auto', bgcolor: 'background.default' }} onKeyDown={onKeys}>
      <Box sx={{ maxWidth: 860, mx: 'auto', p: { xs: 1.5, sm: 3 } }}>
        <Typography component="h1" variant="h6" sx={{ fontWeight: 700, mb: 1.5 }}>
          {t.title}
        </Typography>
        <Box
          component="form"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextField
            inputRef={field}
            fullWidth
            size="small"
            type="search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={t.placeholder}
            helperText={t.help}
            sx={{ bgcolor: 'background.paper', '& .MuiFormHelperText-root': { bgcolor: 'background.default', m: 0, pt: 0.5 } }}
            slotProps={{
              htmlInput: { 'aria-label': t.field, maxLength: 200, enterKeyHint: 'search' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>
        <Box ref={list} sx={{ mt: 2, bgcolor: 'background.paper', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }} aria-live="polite">
          {body}
        </Box>
      </Box>
    </Box>
  );
}
