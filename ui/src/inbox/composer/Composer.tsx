import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import MicNone from '@mui/icons-material/MicNone';
import ScheduleSend from '@mui/icons-material/ScheduleSend';
import Send from '@mui/icons-material/Send';
import { texts } from '../../i18n/ptBR';
import { INBOX, MessageType } from '../constants';
import { composing } from '../inboxApi';
import { QuickPhraseDialog } from '../lazyParts';
import { useQuickPhrasesQuery } from '../quickPhrases/useQuickPhrases';
import { replySnippet } from '../conversation/MessageBubble';
import { matchPhrases, PHRASE_LISTBOX_ID, phraseOptionId, QuickPhraseMenu } from './QuickPhraseMenu';
import { useSend } from './useSend';
import { useWhatsappWindow } from '../whatsappTemplates/useWhatsappWindow';
import { useMetaWindow } from '../metaWindow/useMetaWindow';
import { META_WINDOW_HELP_ID, MetaWindowNotice } from '../metaWindow/MetaWindowNotice';
import { useSession } from '../../providers/session';
import { PLAN_EXPIRED_HELP_ID, PlanExpiredNotice, repliesBlockedByPlan } from '../../settings/billing/PlanExpiredNotice';
import type { Conversation, Message, QuickPhrase } from '../types';
import { TipIconButton } from '../../common/TipIconButton';
import { scheduleLabels } from '../../schedules/labels';

// The modals (and MediaRecorder code) load on first use, keeping the inbox route lean.
const SendFileDialog = lazy(() => import('./SendFileDialog').then((m) => ({ default: m.SendFileDialog })));
const VoiceRecorderDialog = lazy(() => import('./VoiceRecorderDialog').then((m) => ({ default: m.VoiceRecorderDialog })));
const TemplatePicker = lazy(() => import('../whatsappTemplates/TemplatePicker').then((m) => ({ default: m.TemplatePicker })));
const ScheduleMessageDialog = lazy(() => import('../../schedules/ScheduleMessageDialog').then((m) => ({ default: m.ScheduleMessageDialog })));

const t = texts.inbox.composer;
type Mode = 'reply' | 'note';

/** The '/' token being typed at the caret, if any: `/` at the start or after a space. */
function slashToken(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)\/([^\s/]*)$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[2]!.length - 1, query: match[2]! } : null;
}

interface Props {
  conversation: Conversation;
  replyTo: Message | null;
  onCancelReply: () => void;
}

/**
 * SPEC §4 composer: reply (COMMON) or private note (PRIVATE); Enter sends, Shift+Enter is a new line;
 * '/' opens the quick phrases; files and voice go through their modals. Typing tells the customer's
 * channel at most once a second, and never for a private note.
 */
export function Composer({ conversation, replyTo, onCancelReply }: Props) {
  const [mode, setMode] = useState<Mode>('reply');
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [phraseIndex, setPhraseIndex] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'file' | 'voice' | 'phrase' | 'schedule' | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const lastComposing = useRef(0);
  const phrasesQuery = useQuickPhrasesQuery();
  const phrases = useMemo(() => phrasesQuery.data ?? [], [phrasesQuery.data]);
  const { sendText, sendFiles } = useSend(conversation);
  const type = mode === 'note' ? MessageType.PRIVATE : MessageType.COMMON;
  // Outside WhatsApp's 24-hour window (Cloud lines) a reply can only be an approved template.
  const waWindow = useWhatsappWindow(conversation);
  const templatesOnly = mode === 'reply' && waWindow?.cloud === true && !waWindow.open;
  // Messenger/Instagram past Meta's window: no reply is accepted, so the reply box is disabled with why (notes stay open).
  const metaWindow = useMetaWindow(conversation);
  const metaNotice = mode === 'reply' && metaWindow && metaWindow.kind !== 'open' ? metaWindow : null;
  // An expired plan: the api refuses replies (402), so the reply box says why (notes stay open here too).
  const workspace = useSession()?.workspace;
  const planBlocked = mode === 'reply' && repliesBlockedByPlan(workspace);
  const replyClosed = metaNotice?.kind === 'closed' || planBlocked;

  // A new conversation starts with an empty reply box.
  useEffect(() => {
    setText('');
    setMode('reply');
    setDismissedAt(null);
  }, [conversation.id]);

  useEffect(() => {
    if (replyTo) {
      setMode('reply');
      inputRef.current?.focus();
    }
  }, [replyTo]);

  const token = slashToken(text, caret);
  const menuOpen = Boolean(token) && token!.start !== dismissedAt;
  useEffect(() => {
    // Teammates add phrases while the inbox stays open: the list is refreshed as the menu opens.
    if (menuOpen) void phrasesQuery.refetch();
  }, [menuOpen]);
  const matches = useMemo(() => (token ? matchPhrases(phrases, token.query) : []), [phrases, token?.query]);
  const safeIndex = Math.min(phraseIndex, Math.max(0, matches.length - 1));

  const pick = useCallback(
    (p: QuickPhrase) => {
      if (!token) return;
      const next = text.slice(0, token.start) + p.phrase + text.slice(caret);
      const at = token.start + p.phrase.length;
      setText(next);
      setCaret(at);
      requestAnimationFrame(() => inputRef.current?.setSelectionRange(at, at));
    },
    [token, text, caret],
  );

  const submit = async () => {
    const body = text;
    if (!body.trim() || replyClosed) return;
    setText('');
    setCaret(0);
    onCancelReply();
    const ok = await sendText(body, type, mode === 'reply' ? replyTo : null);
    // A failed send gives the text back unless the agent already typed something else.
    if (!ok) setText((current) => current || body);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menuOpen && matches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setPhraseIndex((i) => (e.key === 'ArrowDown' ? (i + 1) % matches.length : (i - 1 + matches.length) % matches.length));
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        pick(matches[safeIndex]!);
        return;
      }
    }
    if (menuOpen && e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setDismissedAt(token!.start);
      return;
    }
    if (e.key === 'Escape' && replyTo) {
      e.preventDefault();
      e.stopPropagation();
      onCancelReply();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  const onChange = (value: string, position: number) => {
    setText(value);
    setCaret(position);
    setPhraseIndex(0);
    if (mode === 'reply' && value.trim() && Date.now() - lastComposing.current >= INBOX.composingDebounceMs) {
      lastComposing.current = Date.now();
      composing(conversation.id).catch(() => undefined);
    }
  };

  const isNote = mode === 'note';
  return (
    <Box component="form" aria-label={t.label} onSubmit={(e) => { e.preventDefault(); void submit(); }} sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 2, pt: 1, pb: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <ToggleButtonGroup size="small" exclusive value={mode} onChange={(_, v: Mode | null) => v && setMode(v)} aria-label={t.mode}>
          <ToggleButton value="reply" sx={{ px: 1.5, py: 0.25, textTransform: 'none' }}>
            {t.reply}
          </ToggleButton>
          <ToggleButton value="note" sx={{ px: 1.5, py: 0.25, textTransform: 'none', '&.Mui-selected': { bgcolor: '#fff4d6', color: '#8a6100' } }}>
            {t.privateNote}
          </ToggleButton>
        </ToggleButtonGroup>
        {isNote ? (
          <Typography id="composer-note-help" sx={{ fontSize: 12, color: '#8a6100' }}>
            {t.privateHelp}
          </Typography>
        ) : null}
        {/* Also outside WhatsApp's window, where the row below gives way to the templates (docs/scheduled-messages.md). */}
        {!isNote ? (
          <TipIconButton title={scheduleLabels.composerButton} size="small" onClick={() => setDialog('schedule')} data-testid="composer-schedule" sx={{ ml: 'auto' }}>
            <ScheduleSend fontSize="small" />
          </TipIconButton>
        ) : null}
      </Box>
      {replyTo && !isNote ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, px: 1, py: 0.5, borderLeft: '3px solid', borderColor: 'primary.main', bgcolor: 'action.hover', borderRadius: 1 }} data-testid="reply-preview">
          <Typography sx={{ fontSize: 12, color: 'text.secondary', flex: 1, minWidth: 0 }} noWrap>
            {t.replyingTo} {replySnippet(replyTo)}
          </Typography>
          <IconButton size="small" aria-label={t.cancelReply} onClick={onCancelReply}>
            <Close fontSize="small" />
          </IconButton>
        </Box>
      ) : null}
      {planBlocked ? <PlanExpiredNotice canPay={(workspace?.accessLevel ?? 0) >= 6} /> : null}
      {metaNotice && !planBlocked ? <MetaWindowNotice metaWindow={metaNotice} /> : null}
      {templatesOnly ? (
        <Suspense fallback={null}>
          <TemplatePicker conversation={conversation} />
        </Suspense>
      ) : null}
      <Box
        ref={boxRef}
        sx={{ display: templatesOnly ? 'none' : 'flex', alignItems: 'flex-end', gap: 0.5, border: 1, borderRadius: 2, px: 1.5, py: 0.75, borderColor: isNote ? '#e0a800' : 'divider', bgcolor: isNote ? '#fffaf0' : 'background.paper', '&:focus-within': { borderColor: isNote ? '#e0a800' : 'primary.main' } }}
      >
        <InputBase
          inputRef={inputRef}
          multiline
          maxRows={8}
          value={text}
          onChange={(e) => onChange(e.target.value, e.target.selectionStart ?? e.target.value.length)}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          disabled={replyClosed}
          placeholder={isNote ? t.notePlaceholder : planBlocked ? texts.billing.composerPlaceholder : replyClosed ? texts.metaWindow.closedPlaceholder : t.replyPlaceholder}
          sx={{ flex: 1, fontSize: 14, py: 0.5 }}
          inputProps={{
            'aria-label': isNote ? t.privateNote : t.reply,
            'aria-describedby': isNote ? 'composer-note-help' : planBlocked ? PLAN_EXPIRED_HELP_ID : metaNotice ? META_WINDOW_HELP_ID : undefined,
            role: 'combobox',
            'aria-autocomplete': 'list',
            'aria-expanded': menuOpen,
            'aria-controls': menuOpen ? PHRASE_LISTBOX_ID : undefined,
            'aria-activedescendant': menuOpen && matches[safeIndex] ? phraseOptionId(matches[safeIndex]!.id) : undefined,
          }}
        />
        <TipIconButton title={t.sendFile} size="small" disabled={replyClosed} onClick={() => setDialog('file')}>
          <AttachFile fontSize="small" />
        </TipIconButton>
        {typeof MediaRecorder !== 'undefined' ? (
          <TipIconButton title={t.recordAudio} size="small" disabled={replyClosed} onClick={() => setDialog('voice')}>
            <MicNone fontSize="small" />
          </TipIconButton>
        ) : null}
        <TipIconButton title={t.send} size="small" type="submit" color="primary" disabled={!text.trim() || replyClosed}>
          <Send fontSize="small" />
        </TipIconButton>
      </Box>
      <QuickPhraseMenu
        anchor={menuOpen ? boxRef.current : null}
        phrases={matches}
        index={safeIndex}
        onPick={pick}
        onHover={setPhraseIndex}
        onCreate={() => setDialog('phrase')}
      />
      <Suspense fallback={null}>
        {dialog === 'file' ? <SendFileDialog open onClose={() => setDialog(null)} onSend={(files) => sendFiles(files, type)} /> : null}
        {dialog === 'voice' ? <VoiceRecorderDialog open onClose={() => setDialog(null)} onSend={(file) => sendFiles([file], type)} /> : null}
        {dialog === 'phrase' ? <QuickPhraseDialog open onClose={() => setDialog(null)} /> : null}
        {dialog === 'schedule' ? <ScheduleMessageDialog conversation={conversation} text={text} onClose={(scheduled) => { setDialog(null); if (scheduled) setText(''); }} /> : null}
      </Suspense>
    </Box>
  );
}
