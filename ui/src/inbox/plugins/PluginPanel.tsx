import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { api } from '../../providers/httpClient';
import { useCustomer, useSaveProperty } from '../contact/contactApi';
import type { Conversation } from '../types';
import { isFromPlugin, parsePluginRequest, pluginOrigin, pluginSrc, TOKEN_REFRESH_MS, type PluginInfo, type PluginRequest, type PluginToken } from './protocol';

const t = texts.integrations.panel;
export const pluginsKey = ['inbox', 'plugins'] as const;

/** The right panel's plugins: one tab per plugin of the workspace (docs/plugins.md). */
export function PluginPanel({ conversation }: { conversation: Conversation | null }) {
  const { data: plugins, isPending } = useQuery({ queryKey: pluginsKey, queryFn: () => api<PluginInfo[]>('/plugin?limit=100'), staleTime: 60_000 });
  const [selected, setSelected] = useState(0);
  if (isPending) return <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}><CircularProgress size={22} aria-label={texts.common.loading} /></Box>;
  if (!plugins?.length) return <Typography color="text.secondary" sx={{ p: 3, fontSize: 14 }}>{t.empty}</Typography>;
  const plugin = plugins[Math.min(selected, plugins.length - 1)];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      {plugins.length > 1 ? (
        <Tabs value={plugins.indexOf(plugin)} onChange={(_, v: number) => setSelected(v)} variant="scrollable" sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 40 }}>
          {plugins.map((p) => <Tab key={p.id} label={p.name} sx={{ minHeight: 40 }} />)}
        </Tabs>
      ) : null}
      <PluginFrame key={`${plugin.id}:${plugin.endpoint}`} plugin={plugin} conversation={conversation} />
    </Box>
  );
}

interface OpenDialog {
  request: Extract<PluginRequest, { event: 'dialog' | 'dialog_confirm' }>;
}

function PluginFrame({ plugin, conversation }: { plugin: PluginInfo; conversation: Conversation | null }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const notify = useNotify();
  const origin = pluginOrigin(plugin.endpoint, window.location.origin);
  const [loads, setLoads] = useState(0);
  const loaded = loads > 0;
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const customerId = conversation?.customerId ?? 0;
  const { data: customer } = useCustomer(customerId);
  const saveProperty = useSaveProperty(customerId);

  // A sandboxed frame has an opaque origin, so "*" is the only target the browser delivers to; the
  // window reference is what pins the message to this frame (see protocol.ts).
  const post = useCallback((message: unknown) => frame.current?.contentWindow?.postMessage(message, '*'), []);

  // The plugin's credentials: a token signed with its auth secret for this operator and conversation,
  // handed over by postMessage after each load, on every conversation change and before it expires.
  const conversationId = conversation?.id ?? null;
  const sendToken = useCallback(
    (id?: string | number) => {
      api<PluginToken>(`/plugin/${plugin.id}/token`, { method: 'POST', body: { conversationId } })
        .then((data) => post({ event: 'auth', ...(id !== undefined ? { id } : {}), data }))
        .catch(() => post({ event: 'auth', ...(id !== undefined ? { id } : {}), data: null }));
    },
    [plugin.id, conversationId, post],
  );
  useEffect(() => {
    if (!loads) return;
    sendToken();
    const refresh = setInterval(() => sendToken(), TOKEN_REFRESH_MS);
    return () => clearInterval(refresh);
  }, [loads, sendToken]);

  useEffect(() => {
    if (!loads) return;
    if (conversation) post({ event: 'conversation', data: { ...conversation, customer: customer ?? null } });
    else post({ event: 'no_conversation' });
  }, [loads, conversation, customer, post]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!isFromPlugin(event, frame.current?.contentWindow, origin)) return;
      const request = parsePluginRequest(event.data);
      if (!request) return;
      switch (request.event) {
        case 'toast':
          notify(request.data.message, { type: request.data.type ?? 'info' });
          break;
        case 'loading':
          setBusy(request.data);
          break;
        case 'auth':
          sendToken(request.id);
          break;
        case 'dialog':
        case 'dialog_confirm':
          setDialog({ request });
          break;
        case 'set-property': {
          if (!customerId) {
            post({ event: 'set-property', id: request.id, data: { ok: false } });
            break;
          }
          const existing = customer?.properties.find((p) => p.label.toLowerCase() === request.data.label.toLowerCase());
          saveProperty.mutate(
            { id: existing?.id, label: request.data.label, value: request.data.value },
            {
              onSuccess: () => post({ event: 'set-property', id: request.id, data: { ok: true } }),
              onError: () => post({ event: 'set-property', id: request.id, data: { ok: false } }),
            },
          );
          break;
        }
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin, notify, post, customerId, customer, saveProperty, sendToken]);

  const answer = (confirmed: boolean) => {
    if (dialog) post({ event: dialog.request.event, id: dialog.request.id, data: { confirmed } });
    setDialog(null);
  };

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0 }}>
      {busy || !loaded ? (
        <Box sx={{ position: 'absolute', inset: 0, display: 'flex', justifyContent: 'center', pt: 4, bgcolor: 'background.paper', opacity: 0.8 }}>
          <CircularProgress size={22} aria-label={t.loading} />
        </Box>
      ) : null}
      <iframe
        ref={frame}
        title={plugin.name}
        src={pluginSrc(plugin, window.location.origin)}
        sandbox="allow-scripts allow-forms allow-popups"
        referrerPolicy="no-referrer"
        onLoad={() => setLoads((n) => n + 1)}
        style={{ border: 0, width: '100%', height: '100%', display: 'block' }}
        data-testid={`plugin-frame-${plugin.id}`}
      />
      <Dialog open={dialog !== null} onClose={() => answer(false)}>
        {dialog?.request.data.title ? <DialogTitle>{dialog.request.data.title}</DialogTitle> : null}
        <DialogContent>
          <DialogContentText>{dialog?.request.data.message}</DialogContentText>
        </DialogContent>
        <DialogActions>
          {dialog?.request.event === 'dialog_confirm' ? <Button onClick={() => answer(false)}>{t.dialogCancel}</Button> : null}
          <Button variant="contained" onClick={() => answer(true)} autoFocus>
            {t.dialogOk}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
