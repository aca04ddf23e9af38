import { useState, type ReactNode } from 'react';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { texts } from '../../i18n/ptBR';
import { failureToasts } from '../../forms/serverErrors';
import { channelsApi, installSnippet, type Channel } from './channelsApi';
import { channelsKey } from './channelKeys';
import { InstallSnippet } from './widget/InstallSnippet';

const t = texts.channels.firstRun;
/** The widget's default colour (the same as a new one on /settings/channels/add/chat-widget). */
const DEFAULT_COLOR = '#0F766E';

export const widgetTestUrl = (identifier: string) => `/widget?workspacePlatformIdentifier=${encodeURIComponent(identifier)}`;

/** 'Adicionar chat do site': makes the widget channel in one click; every channel list learns of it. */
export function AddSiteChatButton({ onCreated }: { onCreated: (channel: Channel) => void }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    try {
      const channel = await channelsApi.createWidget({ description: t.widgetName, avatar: DEFAULT_COLOR });
      notify(texts.channels.widget.saved, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: channelsKey });
      onCreated(channel);
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="contained" startIcon={<ChatOutlined />} disabled={busy} onClick={() => void add()}>
      {t.add}
    </Button>
  );
}

/** One step of the first run: a titled section (named by its title, `id` its test id) with its text and what to do. */
function FirstRunStep({ id, maxWidth, title, text, children }: { id: string; maxWidth: number; title: string; text: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} data-testid={id} sx={{ p: 3, maxWidth }}>
      <Typography id={`${id}-title`} component="h2" variant="h6" fontWeight={700} gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {text}
      </Typography>
      {children}
    </Paper>
  );
}

/** What to do first in a workspace without channels: add the site chat (level 6+), or ask who can. */
export function FirstChannelCard({ canManage, onCreated }: { canManage: boolean; onCreated: (channel: Channel) => void }) {
  return (
    <FirstRunStep id="first-run" maxWidth={560} title={t.title} text={canManage ? t.text : t.askAdmin}>
      {canManage ? <AddSiteChatButton onCreated={onCreated} /> : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t.others}
      </Typography>
    </FirstRunStep>
  );
}

/** The site chat just made: its test page one click away, then the code to paste and its settings. */
export function SiteChatReady({ channel }: { channel: Channel }) {
  return (
    <FirstRunStep id="first-run-ready" maxWidth={640} title={t.readyTitle} text={t.readyText}>
      <Button variant="contained" href={widgetTestUrl(channel.identifier)} target="_blank" rel="noopener" endIcon={<OpenInNew />}>
        {t.openTest}
      </Button>
      <InstallSnippet snippet={installSnippet(channel.identifier)} text={t.installText} />
      <Box sx={{ mt: 1 }}>
        <Link component={RouterLink} to={`/settings/channels/chat-widget/${channel.id}`}>
          {t.configure}
        </Link>
      </Box>
    </FirstRunStep>
  );
}

/**
 * The inbox's first run (docs/ui.md "First run"): in a workspace without any channel, the place of
 * 'Nenhuma conversa selecionada.' says what to do first; once the site chat is made here, it stays on its
 * test page link and install code while the first message is awaited.
 */
export function InboxFirstRun({ canManage, created, onCreated }: { canManage: boolean; created: Channel | undefined; onCreated: (channel: Channel) => void }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0, overflowY: 'auto', display: 'flex', alignItems: 'flex-start', justifyContent: 'center', p: 4 }}>
      {created ? <SiteChatReady channel={created} /> : <FirstChannelCard canManage={canManage} onCreated={onCreated} />}
    </Box>
  );
}
