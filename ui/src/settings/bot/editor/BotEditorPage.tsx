import { useCallback, useMemo, useRef, useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { ReactFlowProvider } from '@xyflow/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { newBot } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import { errorDescriptions, HttpError } from '../../../providers/httpClient';
import { botApi, botChoicesKey, botsKey, toDoc, type BotChoices, type BotDoc, type BotRow } from '../botApi';
import { downloadBot } from '../downloadBot';
import { ActionDialog } from './ActionDialog';
import { anchorErrors, keyErrors, type AnchoredError } from './anchoredErrors';
import { BotCanvas } from './BotCanvas';
import { ConfigurationDialog } from './ConfigurationDialog';
import { EditorContext, type EditorState } from './EditorContext';
import { PathDialog } from './PathDialog';
import { PathList } from './PathList';
import { PathPanel } from './PathPanel';
import { useLeaveGuard } from './useLeaveGuard';
import { useRecordDelete } from '../../common/useRecordDelete';
import { validateDoc } from './draft';

const t = texts.bots;

/** /settings/bot/{id|new}/*: loads the bot (or a new/imported one) and opens the editor on it. */
export function BotEditorPage() {
  const { id: rawId } = useParams();
  const location = useLocation();
  const isNew = rawId === 'new';
  const id = rawId && /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : undefined;
  const { data: row, error } = useQuery({ queryKey: [...botsKey, id], queryFn: () => botApi.get(id!), enabled: id !== undefined, retry: false, staleTime: Infinity });
  const { data: choices } = useQuery({ queryKey: botChoicesKey, queryFn: botApi.choices });
  // An imported file arrives as navigation state from the list ('Importar').
  const imported = (location.state as { imported?: BotDoc } | null)?.imported;

  if (!isNew && (id === undefined || error)) return <Navigate to="/settings/bot" replace />;
  if ((!isNew && !row) || !choices) return <LinearProgress aria-label={texts.common.loading} />;
  const initial = isNew ? (imported ?? (newBot() as BotDoc)) : toDoc(row!);
  return <BotEditor key={id ?? 'new'} id={id} initial={initial} choices={choices} startDirty={isNew && !!imported} />;
}

function BotEditor({ id, initial, choices, startDirty }: { id?: number; initial: BotDoc; choices: BotChoices; startDirty: boolean }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const base = `/settings/bot/${id ?? 'new'}`;
  const [doc, setDoc] = useState<BotDoc>(initial);
  // An imported bot is unsaved from the start.
  const dirty = useRef(startDirty);
  const [, setDirtyTick] = useState(0);
  const [showValidation, setShowValidation] = useState(false);
  const [serverErrors, setServerErrors] = useState<AnchoredError[]>([]);
  const [saving, setSaving] = useState(false);
  const organizeRef = useRef<(() => void) | null>(null);

  const markDirty = (value: boolean) => {
    dirty.current = value;
    setDirtyTick((n) => n + 1);
  };
  const update = useCallback((fn: (d: BotDoc) => BotDoc, options?: { silent?: boolean }) => {
    setDoc((d) => fn(d));
    if (options?.silent) return;
    dirty.current = true;
    setDirtyTick((n) => n + 1);
  }, []);
  const docRef = useRef(doc);
  docRef.current = doc;
  const clearErrors = useCallback((prefix: string) => setServerErrors((list) => list.filter((e) => !(Object.keys(keyErrors(docRef.current, [e]))[0] ?? '').startsWith(prefix))), []);

  const errors = useMemo(() => ({ ...(showValidation ? validateDoc(doc) : {}), ...keyErrors(doc, serverErrors) }), [doc, showValidation, serverErrors]);
  const guard = useLeaveGuard(
    () => dirty.current,
    (pathname) => pathname === base || pathname.startsWith(`${base}/`),
  );

  const save = async () => {
    const found = validateDoc(doc);
    if (Object.keys(found).length) {
      setShowValidation(true);
      notify(t.fixErrors, { type: 'error' });
      return;
    }
    setSaving(true);
    try {
      const saved: BotRow = id === undefined ? await botApi.create(doc) : await botApi.update(id, doc);
      setShowValidation(false);
      setServerErrors([]);
      setDoc(toDoc(saved));
      markDirty(false);
      queryClient.setQueryData([...botsKey, saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: botsKey, exact: true });
      notify(id === undefined ? t.created : t.updated, { type: 'success' });
      if (id === undefined) void navigate(location.pathname.replace(/^\/settings\/bot\/new/, `/settings/bot/${saved.id}`), { replace: true });
    } catch (err) {
      if (err instanceof HttpError && Object.keys(err.fieldErrors).length) {
        setServerErrors(anchorErrors(doc, err.fieldErrors));
        notify(t.fixErrors, { type: 'error' });
      } else {
        for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      }
    } finally {
      setSaving(false);
    }
  };

  const deletion = useRecordDelete({
    queryKey: [...botsKey, id],
    listKey: botsKey,
    del: async () => {
      if (id === undefined) return;
      await botApi.remove(id);
      markDirty(false);
    },
    deletedText: t.deleted,
    backTo: '/settings/bot',
  });

  const state: EditorState = { doc, update, errors, clearErrors, choices, base };
  const errorList = Object.entries(errors);

  return (
    <EditorContext.Provider value={state}>
      {/* On a phone the page scrolls: the paths above, then the canvas at most of the screen's height. */}
      <Box sx={{ display: 'flex', flexDirection: 'column', height: { xs: 'auto', sm: 'calc(100vh - 64px - 64px)' }, minHeight: 480 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" fontWeight={700} sx={{ mr: 1 }} data-testid="bot-title">
            {doc.name}
          </Typography>
          {doc.isActive ? <Chip size="small" label={t.isActive} color="success" /> : null}
          <Box sx={{ flex: 1 }} />
          <Button component={RouterLink} to={`${base}/configuration`} startIcon={<SettingsOutlined />}>
            {t.configuration}
          </Button>
          <Button component={RouterLink} to={`${base}/path/new`} startIcon={<Add />}>
            {t.newPath}
          </Button>
          <Button startIcon={<AccountTreeOutlined />} disabled={!doc.paths.length} onClick={() => organizeRef.current?.()}>
            {t.organize}
          </Button>
          <Button startIcon={<FileDownloadOutlined />} onClick={() => downloadBot(doc)}>
            {t.export}
          </Button>
          {id !== undefined ? (
            <Button color="error" startIcon={<DeleteOutline />} onClick={deletion.ask}>
              {t.delete}
            </Button>
          ) : null}
          <Button variant="contained" onClick={() => void save()} loading={saving}>
            {texts.common.save}
          </Button>
        </Box>
        {errorList.length ? (
          <Alert severity="error" sx={{ mb: 1 }} data-testid="bot-errors">
            {errorList.slice(0, 5).map(([key, message]) => (
              <div key={key}>{describe(doc, key, message)}</div>
            ))}
          </Alert>
        ) : null}
        <Box sx={{ flex: { sm: 1 }, display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, minHeight: 0, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
          <PathList />
          <Box sx={{ flex: { xs: '0 0 auto', sm: 1 }, height: { xs: '70vh', sm: 'auto' }, position: 'relative', minWidth: 0 }} data-testid="bot-canvas">
            <ReactFlowProvider>
              <BotCanvas organizeRef={organizeRef} />
            </ReactFlowProvider>
            <Routes>
              <Route index element={null} />
              <Route path="configuration" element={<ConfigurationDialog />} />
              <Route path="path/new" element={<PathDialog />} />
              <Route path="path/:pathGuid" element={<PathPanel />} />
              <Route path="path/:pathGuid/edit" element={<PathDialog />} />
              <Route path="path/:pathGuid/:actionType/:actionGuid" element={<ActionDialog />} />
              <Route path="*" element={<Navigate to="/settings/bot" replace />} />
            </Routes>
          </Box>
        </Box>
      </Box>
      <Confirm isOpen={deletion.confirming} loading={deletion.deleting} title={t.deleteTitle} content={t.deleteText} confirm={t.delete} cancel={texts.common.cancel} onConfirm={() => void deletion.remove()} onClose={deletion.close} />
      <Dialog open={guard.pending} onClose={guard.stay} aria-describedby="bot-unsaved-text">
        <DialogContent>
          <DialogContentText id="bot-unsaved-text">{t.unsaved}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={guard.stay}>{texts.common.cancel}</Button>
          <Button color="error" variant="contained" onClick={guard.leave}>
            {t.leave}
          </Button>
        </DialogActions>
      </Dialog>
    </EditorContext.Provider>
  );
}

/** "Caminho › Ação: mensagem" for the error summary above the canvas. */
function describe(doc: BotDoc, key: string, message: string): string {
  const m = /^paths\.(\d+)(?:\.actions\.(\d+))?/.exec(key);
  if (!m) return `${t.configuration}: ${message}`;
  const path = doc.paths[Number(m[1])];
  const action = m[2] !== undefined ? path?.actions[Number(m[2])] : undefined;
  return [path?.name, action ? t.actionTypes[action.type] : undefined].filter(Boolean).join(' › ') + `: ${message}`;
}
