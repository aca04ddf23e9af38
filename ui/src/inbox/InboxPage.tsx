import { lazy, Suspense, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import useMediaQuery from '@mui/material/useMediaQuery';
import { shellTexts as texts } from '../i18n/shellTexts';
import { INBOX, isBuiltinSegment } from './constants';
import { InboxSidebar, SEGMENTS } from './InboxSidebar';
import { ConversationList } from './list/ConversationList';
import { NothingSelected } from './NothingSelected';
import { ResizeHandle } from './ResizeHandle';
import { usePreference } from './usePreference';
import { useInboxRoute } from './useInboxRoute';
import { isTypingTarget, overlayOpen } from './keyboard';
import { useConversation, useWorkspaceChannels } from './queries';
import { useSession } from '../providers/session';
import type { Channel } from '../settings/channels/channelsApi';
import { useSubscribedSegments } from './segments/useSegments';
import { preloadableLazy, useOpenedOnce, whenIdle } from '../common/lazyLoad';

const t = texts.inbox;

// The open conversation (messages, composer, menus) is its own chunk: /inbox/all with nothing selected
// renders without it, and it is fetched while the browser is idle so opening a conversation never waits.
const loadConversationView = () => import('./conversation/ConversationView').then((m) => ({ default: m.ConversationView }));
const ConversationView = lazy(loadConversationView);
const loadRightPanel = () => import('./panel/RightPanel').then((m) => ({ default: m.RightPanel }));
const RightPanel = lazy(loadRightPanel);
// A phone's contact panel slides in a drawer: its code is fetched with the conversation's, not up front.
const Drawer = preloadableLazy(() => import('@mui/material/Drawer').then((m) => m.default));
// Only a workspace without channels needs it (docs/ui.md "First run").
const InboxFirstRun = lazy(() => import('../settings/channels/FirstRun').then((m) => ({ default: m.InboxFirstRun })));

function DetailLoading() {
  return (
    <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress size={28} aria-label={texts.common.loading} />
    </Box>
  );
}

/** The contact panel's width over a phone's conversation: the conversation's edge stays visible to tap back. */
const PHONE_PANEL_WIDTH = 320;

/**
 * /inbox/:segment/:id? — segments, the resizable conversation list, the open conversation and the
 * right panel. The sidebar folds away at 1366 px and below while a conversation is open (SPEC §9).
 */
export function InboxPage() {
  const { segment, openId, openConversation, closeConversation } = useInboxRoute();
  const [listWidth, setListWidth] = usePreference('listWidth', INBOX.list.default);
  const [panelWidth, setPanelWidth] = usePreference('panelWidth', INBOX.panel.default);
  const [sidebarClosed, setSidebarClosed] = usePreference('sidebarClosed', false);
  const [panelOpen, setPanelOpen] = usePreference('panelOpen', true);
  const narrow = useMediaQuery(`(max-width:${INBOX.collapseSidebarAt}px)`);
  const onePane = useMediaQuery(`(max-width:${INBOX.onePaneAt}px)`);
  // On a phone the contact panel slides over the conversation when asked for, never by the desktop preference.
  const [phonePanel, setPhonePanel] = useState(false);
  const phonePanelOpened = useOpenedOnce(phonePanel);
  const collapsed = sidebarClosed || onePane || (narrow && openId !== undefined);
  const { data: saved = [] } = useSubscribedSegments();
  const { data: open } = useConversation(openId);
  const workspace = useSession()?.workspace;
  const canManageChannels = (workspace?.accessLevel ?? 0) >= 6;
  const channels = useWorkspaceChannels(openId === undefined);
  // The site chat made from the first run: its test page and code stay on screen while the first message is awaited.
  const [made, setMade] = useState<{ workspaceId: number; channel: Channel }>();
  const firstChannel = made && made.workspaceId === workspace?.workspaceId ? made.channel : undefined;
  const firstRun = firstChannel !== undefined || channels.data?.length === 0;
  const title = isBuiltinSegment(segment) ? SEGMENTS.find((s) => s.id === segment)!.label : (saved.find((s) => String(s.id) === segment)?.name ?? t.savedFilter);

  useEffect(() => whenIdle(() => void Promise.all([loadConversationView(), loadRightPanel(), Drawer.preload()]).catch(() => undefined)), []);

  // Esc closes the detail (SPEC §2 → /inbox/new), unless a field, a menu or a modal owns the key.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || !openId || isTypingTarget(e.target) || overlayOpen()) return;
      e.preventDefault();
      closeConversation();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [openId, closeConversation]);

  const detail = openId ? (
    <Suspense fallback={<DetailLoading />}>
      <ConversationView
        key={openId}
        id={openId}
        segment={segment}
        panelOpen={onePane ? phonePanel : panelOpen}
        onTogglePanel={() => (onePane ? setPhonePanel(!phonePanel) : setPanelOpen(!panelOpen))}
        onClose={closeConversation}
      />
    </Suspense>
  ) : firstRun ? (
    <Suspense fallback={<DetailLoading />}>
      <InboxFirstRun canManage={canManageChannels} created={firstChannel} onCreated={(channel) => workspace && setMade({ workspaceId: workspace.workspaceId, channel })} />
    </Suspense>
  ) : (
    <NothingSelected />
  );

  if (onePane) {
    // A phone: the segments rail and the list, or the open conversation alone (its close button leads back).
    return (
      <Box sx={{ display: 'flex', height: '100%', minHeight: 0, minWidth: 0 }} data-testid="inbox">
        {openId || firstRun ? (
          <>
            {detail}
            {openId && open && phonePanelOpened ? (
              <Suspense fallback={null}>
                <Drawer anchor="right" open={phonePanel} onClose={() => setPhonePanel(false)}>
                  <Suspense fallback={null}>
                    <RightPanel conversation={open} width={PHONE_PANEL_WIDTH} />
                  </Suspense>
                </Drawer>
              </Suspense>
            ) : null}
          </>
        ) : (
          <>
            <InboxSidebar segment={segment} collapsed onToggle={() => setSidebarClosed(!collapsed)} />
            <ConversationList segment={segment} title={title} openId={openId} onOpen={openConversation} width={undefined} />
          </>
        )}
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }} data-testid="inbox">
      <InboxSidebar segment={segment} collapsed={collapsed} onToggle={() => setSidebarClosed(!collapsed)} />
      <ConversationList segment={segment} title={title} openId={openId} onOpen={openConversation} width={listWidth} />
      <ResizeHandle label={t.resizeList} width={listWidth} min={INBOX.list.min} max={INBOX.list.max} direction={1} onResize={setListWidth} />
      {detail}
      {openId && open && panelOpen ? (
        <>
          <ResizeHandle label={t.resizePanel} width={panelWidth} min={INBOX.panel.min} max={INBOX.panel.max} direction={-1} onResize={setPanelWidth} />
          <Suspense fallback={null}>
            <RightPanel conversation={open} width={panelWidth} />
          </Suspense>
        </>
      ) : null}
    </Box>
  );
}
